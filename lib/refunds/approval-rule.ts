import 'server-only';
/**
 * A refund above the owner's threshold waits for a second person (docs/decisions/082): it is made
 * `required`, and no plan sends it until someone with the refunds permission other than the person
 * who made it approves it. The threshold is a fiat amount; a refund is valued at the rate service's
 * current price when it is made, and one that cannot be valued (no price) needs approval: the rule
 * errs towards asking.
 */
import { z } from 'zod';
import { bare, merchants, param, sql, statement, type Queryable, type RowOf } from '../db';
import { formatDecimal, parseDecimal, type Decimal } from '../money';
import type { MerchantScope } from '../merchants';
import type { RefundApproval } from '../protocol';
import { priceableCurrencies, rateService } from '../rates';

/**
 * Whether `amount` base units of a coin of `decimals` are worth more than `threshold` at `rate`
 * (price of one coin in the threshold's currency); exact, in integers. No threshold: never; no
 * rate: always.
 */
export function aboveApprovalThreshold(
  amount: bigint,
  decimals: number,
  rate: Decimal | null,
  threshold: Decimal | null,
): boolean {
  if (threshold === null) return false;
  if (rate === null) return true;
  // amount / 10^decimals * rate.value / 10^rate.scale > threshold.value / 10^threshold.scale
  return amount * rate.value * 10n ** BigInt(threshold.scale) > threshold.value * 10n ** BigInt(decimals + rate.scale);
}

const THRESHOLD = statement<
  Pick<RowOf<typeof merchants>, 'refund_approval_above' | 'refund_approval_currency'>,
  { id: string }
>(
  sql`select ${merchants.refundApprovalAbove} as refund_approval_above, ${merchants.refundApprovalCurrency} as refund_approval_currency
   from ${merchants} where ${merchants.id} = ${param('id')}`,
);

/** Whether a new refund of `amount` base units of `currency` needs a second person: `required` or `none`. */
export async function approvalFor(
  db: Queryable,
  scope: MerchantScope,
  payment: { currency: string; decimals: number },
  amount: bigint,
): Promise<RefundApproval> {
  const [merchant] = await THRESHOLD.run(db, { id: scope.merchantId });
  const threshold = merchant?.refund_approval_above ? (parseDecimal(merchant.refund_approval_above) ?? null) : null;
  if (threshold === null) return 'none';
  const rate = await rateService(scope.mode)
    .quote(payment.currency, merchant!.refund_approval_currency)
    .then((quote) => parseDecimal(quote.rate) ?? null)
    .catch(() => null);
  return aboveApprovalThreshold(amount, payment.decimals, rate, threshold) ? 'required' : 'none';
}

/**
 * The settings form of the threshold, as text fields: empty for none, or a decimal of at most 20
 * whole digits and 8 decimals (parsed exactly); a currency the rate service prices.
 */
export const REFUND_APPROVAL_FORM = z.object({
  above: z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === '') return null;
      const amount = /^\d{1,20}(\.\d{1,8})?$/.test(text) ? parseDecimal(text) : undefined;
      if (!amount) {
        ctx.addIssue({
          code: 'custom',
          message: 'The threshold is an amount such as "500" or "99.5", or empty for none.',
        });
        return z.NEVER;
      }
      return formatDecimal(amount);
    }),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .refine(
      (code) => priceableCurrencies().includes(code),
      'The currency is one the gateway has prices in, such as USD.',
    ),
});

/** What the owner sets: the threshold in its currency, or none. */
export interface RefundApprovalRule {
  above: string | null;
  currency: string;
}

const SET_RULE = statement<unknown, { id: string; above: string | null; currency: string }>(
  sql`update ${merchants} set ${bare(merchants.refundApprovalAbove)} = ${param('above')}::numeric,
     ${bare(merchants.refundApprovalCurrency)} = ${param('currency')}
   where ${merchants.id} = ${param('id')}`,
);

/** Sets the owner's approval threshold (already parsed: a canonical decimal and a fiat code). */
export async function setRefundApprovalRule(db: Queryable, merchantId: string, rule: RefundApprovalRule) {
  await SET_RULE.run(db, { id: merchantId, above: rule.above, currency: rule.currency });
}

/** The owner's approval threshold. */
export async function refundApprovalRule(db: Queryable, merchantId: string): Promise<RefundApprovalRule> {
  const [merchant] = await THRESHOLD.run(db, { id: merchantId });
  return {
    above: merchant?.refund_approval_above ? formatThreshold(merchant.refund_approval_above) : null,
    currency: merchant?.refund_approval_currency ?? 'USD',
  };
}

/** NUMERIC answers trailing zeros ("100.00000000"): shown as the owner typed it ("100"). */
function formatThreshold(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
