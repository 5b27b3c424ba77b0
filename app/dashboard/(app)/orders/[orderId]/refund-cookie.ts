import { cookies } from 'next/headers';
import { claimLinksValue } from './claim-links';

/** The cookie that carries fresh claim links to their order's page for a minute (./refund-actions.ts, ./actions.ts). */
export const CLAIM_LINK_COOKIE = 'cg_refund_claim';

/**
 * Hands claim links just made to the order's page (`page`) only, for a minute, never in a URL:
 * each is the payer's bearer secret. The page shows each beside its refund (./claim-links.ts
 * `claimLinksOf`), as many as one cookie holds.
 */
export async function handOverClaimLinks(
  page: string,
  made: readonly { refund: { id: string }; claimUrl: string }[],
): Promise<void> {
  const value = claimLinksValue(made);
  if (value === null) return;
  (await cookies()).set(CLAIM_LINK_COOKIE, value, { httpOnly: true, sameSite: 'strict', path: page, maxAge: 60 });
}
