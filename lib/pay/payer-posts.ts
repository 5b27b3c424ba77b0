import 'server-only';
/**
 * The payment page's posts ("pay the rest", the payer's refund: docs/decisions/069, 088) are open
 * to whoever holds the order's link, so each is rate-limited twice with the gateway's one limiter
 * (lib/security): per client (behind TRUSTED_PROXIES, the client it forwarded for) and per order.
 * Either post is idempotent (one remainder, one payer refund per order); the limits bound the work
 * a script hammering them can cause.
 */
import { clientKey, perMinute, rateLimitWaitAll } from '../security';

/** Posts a client may make a minute, across orders, and posts an order may take a minute, across clients. */
export const PAYER_POSTS_PER_MINUTE = { client: 30, order: 10 } as const;

/** Takes one post of `client` on `orderId` from both budgets; answers 0 when allowed, else the seconds to wait. */
export function payerPostWait(client: string | null | undefined, orderId: string, now?: number): number {
  return rateLimitWaitAll(
    [
      [`pay-post:${clientKey(client)}`, perMinute(PAYER_POSTS_PER_MINUTE.client)],
      [`pay-post-order:${orderId}`, perMinute(PAYER_POSTS_PER_MINUTE.order)],
    ],
    now === undefined ? {} : { now },
  );
}
