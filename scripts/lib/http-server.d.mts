import type { IncomingMessage, ServerResponse } from 'node:http';
export function gatewayRequestListener(nextHandler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): (req: IncomingMessage, res: ServerResponse) => void;
