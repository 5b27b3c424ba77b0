/** The cookie that carries a fresh claim link to its order's page for a minute (./refund-actions.ts). */
export const CLAIM_LINK_COOKIE = 'cg_refund_claim';
