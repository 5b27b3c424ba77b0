/**
 * The invoice page's coin choice as posted (app/invoice/[invoiceId]/actions.ts), parsed at the
 * edge: `coin=TICKER@network`, and the payer's optional e-mail address for the order's mails and a
 * refund's claim link (docs/decisions/110), by make-order's rule for `payerEmail`. Pure, client-safe.
 */
import { z } from 'zod';
import { payerEmailField } from '../protocol';

export const COIN_CHOICE_FORM = z.object({
  coin: z
    .string()
    .regex(/^[A-Za-z0-9]{1,16}@[a-z0-9-]{1,32}$/)
    .transform((value) => {
      const [currency = '', network = ''] = value.split('@');
      return { currency, network };
    }),
  // An empty field is no address: giving one is the payer's choice.
  payerEmail: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() || undefined : (value ?? undefined)),
    payerEmailField.optional(),
  ),
});

/** What the page says of a refused post (`?error=`): a bad address is the payer's to correct; anything else is no coin of the list. */
export function coinChoiceRefusal(error: z.ZodError): 'email' | 'invalid' {
  return error.issues.some((issue) => issue.path[0] === 'coin') ? 'invalid' : 'email';
}
