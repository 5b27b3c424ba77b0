import 'server-only';
/**
 * Claim links (docs/decisions/071): the payer's way to say where a refund goes. A link is a bearer
 * secret of 256 bits; the gateway keeps only its SHA-256. The token is derived from a claim id (a
 * random UUID, the refund-claim mail's id when the link is mailed) with APP_SECRET, as team mails'
 * links are (docs/decisions/065): the mailer makes the same link on every attempt, and a copy of the
 * database alone opens no claim.
 */
import { createHash, createHmac } from 'node:crypto';
import { config } from '../config';
import { appSecret } from '../merchants';

/** How long a claim link works: 14 days, time for a payer to find the mail and an address. */
export const CLAIM_LIFETIME_MS = 14 * 24 * 3_600_000;

/** A claim's link token, 43 base64url characters. */
export function claimToken(claimId: string, secret = appSecret()): string {
  return createHmac('sha256', `refund-claim-link\0${secret}`).update(claimId, 'utf8').digest('base64url');
}

/** What is stored of a token: its SHA-256, hex. */
export function claimTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The payer's page of a claim. */
export function claimUrl(token: string): string {
  return `${config().publicBaseUrl}/refund/${token}`;
}

/** A token's shape: anything else is refused before the database is asked. */
export const CLAIM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
