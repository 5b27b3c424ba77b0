import { createHash, createHmac, randomBytes } from 'node:crypto';

/** A fresh secret for a cookie or a one-time link: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of a token: its SHA-256 (hex). The token itself has 256 random bits, so
 * a plain hash suffices (no salt, no slow hash): a copy of the table opens no session.
 */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A cookie or link value of the shape newToken() makes; anything else is refused before a query. */
export function isTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/**
 * The token of a mailed link, derived from the mail's id (or another random id) with the
 * application secret: the mailer makes the same link on every attempt, and a copy of the database
 * alone (ids and token hashes) opens nothing. `purpose` separates the kinds of link, so that one
 * kind's token never opens another's. 43 base64url characters, the shape of newToken().
 */
export function derivedToken(purpose: string, id: string, secret: string): string {
  return createHmac('sha256', `${purpose}\0${secret}`).update(id, 'utf8').digest('base64url');
}
