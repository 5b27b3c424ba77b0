export interface Litecoind {
  url: string;
  user: string;
  password: string;
  dir: string;
  rpc(method: string, ...params: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  mine(n?: number): Promise<string[]>;
  halt(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}
export function ensureLitecoindInstalled(): string;
export function startLitecoind(options?: {
  matureBlocks?: number;
  extraArgs?: string[];
  txindex?: boolean;
}): Promise<Litecoind>;
