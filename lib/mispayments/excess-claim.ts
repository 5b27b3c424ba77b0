import 'server-only';
/**
 * The merchant's own threshold for claiming an overpaid order's excess (issue 38, docs/decisions/091):
 * a share of the order's amount in percent, below which the payment page offers no "Claim the
 * excess" and `requestPayerRefund` refuses one. Never below the minimum against dust (1 %,
 * REMAINDER_MINIMUM_PER_MILLE); empty: the minimum alone. Owners and admins set it (`settings`).
 */
import { z } from 'zod';
import { bare, merchants, param, sql, statement, type Queryable } from '../db';
import { formatPercent, formatUnits, parsePercent } from '../money';
import { REMAINDER_MINIMUM_PER_MILLE } from './rules';

const LEAST_PERCENT = formatUnits(REMAINDER_MINIMUM_PER_MILLE, 1);
const REFUSED = `The threshold is a percent of the order's amount from ${LEAST_PERCENT} to 100 with at most 6 decimals, such as "5", or empty for the ${LEAST_PERCENT} % minimum.`;

/** The settings form's field, as text: empty for none (null), else a canonical percent from the minimum to 100. */
export const EXCESS_CLAIM_FORM = z.object({
  percent: z
    .string()
    .trim()
    .max(12, REFUSED)
    .transform((text, ctx) => {
      if (text === '') return null;
      const percent = parsePercent(text);
      const unit = percent ? 10n ** BigInt(percent.scale) : 1n;
      if (!percent || percent.value * 10n < REMAINDER_MINIMUM_PER_MILLE * unit || percent.value > 100n * unit) {
        ctx.addIssue({ code: 'custom', message: REFUSED });
        return z.NEVER;
      }
      return formatPercent(percent);
    }),
});

const RULE = statement<{ percent: string | null }, { id: string }>(
  sql`select ${merchants.excessClaimPercent}::text as percent from ${merchants} where ${merchants.id} = ${param('id')}`,
);
const SET_RULE = statement<unknown, { id: string; percent: string | null }>(
  sql`update ${merchants} set ${bare(merchants.excessClaimPercent)} = ${param('percent')}::numeric where ${merchants.id} = ${param('id')}`,
);

/** The merchant's threshold as the settings show it ("5", not "5.000000"), null for the minimum alone. */
export async function excessClaimRule(db: Queryable, merchantId: string): Promise<string | null> {
  const [row] = await RULE.run(db, { id: merchantId });
  const percent = row?.percent ? parsePercent(row.percent) : undefined;
  return percent ? formatPercent(percent) : null;
}

/** Sets the threshold (parsed by EXCESS_CLAIM_FORM: a canonical percent, or null). The caller audits. */
export async function setExcessClaimRule(db: Queryable, merchantId: string, percent: string | null): Promise<void> {
  await SET_RULE.run(db, { id: merchantId, percent });
}
