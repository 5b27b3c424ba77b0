import 'server-only';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { peekProcessSlot, setProcessSlot } from '../process';

/**
 * The control endpoint lets the CLIs reach a running server that holds the embedded database.
 * Its token is a random secret in the data directory, readable by the owner only: whoever can
 * read it could open the database files anyway.
 */
const TOKEN_FILE = 'control-token';

export function createControlToken(dataDir: string): string {
  const token = randomBytes(32).toString('hex');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, TOKEN_FILE), token, { mode: 0o600 });
  return token;
}

export function readControlToken(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, TOKEN_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}

export function setActiveControlToken(token: string): void {
  setProcessSlot('controlToken', token);
}

export function controlTokenMatches(authorization: string | null): boolean {
  const active = peekProcessSlot<string>('controlToken');
  const given = authorization?.replace(/^Bearer\s+/i, '') ?? '';
  if (!active || given.length !== active.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(active));
}
