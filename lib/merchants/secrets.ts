import 'server-only';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config } from '../config';

/**
 * APP_SECRET protects the private API keys at rest. With PostgreSQL it must be configured (every
 * instance needs the same one); for the embedded default it is generated once and kept in the
 * data directory, readable by the owner only.
 */
export function appSecret(): string {
  const cfg = config();
  if (cfg.appSecret) return cfg.appSecret;
  if (cfg.databaseUrl) throw new Error('APP_SECRET: required when DATABASE_URL is set (at least 32 characters).');
  const file = path.join(cfg.dataDir, 'app-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(cfg.dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    // 'wx' fails if another process won the race; then read theirs.
    try {
      fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return fs.readFileSync(file, 'utf8').trim();
    }
  }
}

const VERSION = 'v1';

function keyFor(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'gateway/api-keys', 'aes-256-gcm', 32));
}

/** AES-256-GCM: "v1.<iv>.<tag>.<ciphertext>" in base64url. */
export function encryptSecret(plain: string, secret = appSecret()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(sealed: string, secret = appSecret()): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || !ciphertext) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
