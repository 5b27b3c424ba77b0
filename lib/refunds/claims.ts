import 'server-only';
/**
 * Claim links (docs/decisions/071): the payer's way to say where a refund goes. A link is a bearer
 * secret of 256 bits; the gateway keeps only its SHA-256. Its token is derived from a claim id (a
 * random UUID, the refund-claim mail's id when the link is mailed) with APP_SECRET, in lib/mail
 * (`refundClaimToken`), so that the mailer makes the same link on every attempt and a copy of the
 * database alone opens no claim.
 */
export { refundClaimToken as claimToken, refundClaimUrl as claimUrl } from '../mail';
/** What is stored of a claim token: its SHA-256, as of every bearer token (lib/security). */
export { tokenHash as claimTokenHash } from '../security';

/** How long a claim link works: 14 days, time for a payer to find the mail and an address. */
export const CLAIM_LIFETIME_MS = 14 * 24 * 3_600_000;
