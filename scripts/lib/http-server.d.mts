import type { IncomingMessage, Server, ServerResponse } from 'node:http';
type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
export const SERVER_TIMEOUTS: {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
};
export function gatewayRequestListener(nextHandler: Handler): (req: IncomingMessage, res: ServerResponse) => void;
export function createGatewayServer(nextHandler: Handler): Server;
export function gatewayStarted(): Promise<{ publicBaseUrl: string }>;
