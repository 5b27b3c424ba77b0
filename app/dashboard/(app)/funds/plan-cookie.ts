/**
 * The cookie that carries why a plan could not be prepared to the page that asked, for a minute
 * (./plan-actions.ts, the order page's refund actions): lib/payouts says why in words (no
 * treasury, nothing to collect, no fee estimate), which a URL must not carry (anyone could craft
 * one that makes the dashboard say anything).
 */
export const PLAN_REFUSAL_COOKIE = 'cg_plan_refusal';

export const PLAN_REFUSAL_COOKIE_OPTIONS = { httpOnly: true, sameSite: 'strict', maxAge: 60 } as const;
