export function ensurePostgresInstalled(): string;
export function freePort(): Promise<number>;
export function startPostgres(): Promise<{ url: string; stop(): void }>;
