import { cookies } from 'next/headers';

/** The cookie that carries a fresh claim link to its order's page for a minute (./refund-actions.ts, ./actions.ts). */
export const CLAIM_LINK_COOKIE = 'cg_refund_claim';

/** Hands a claim link just made to the order's page (`page`) only, for a minute, never in a URL: it is the payer's bearer secret. */
export async function handOverClaimLink(page: string, claimUrl: string): Promise<void> {
  (await cookies()).set(CLAIM_LINK_COOKIE, claimUrl, { httpOnly: true, sameSite: 'strict', path: page, maxAge: 60 });
}
