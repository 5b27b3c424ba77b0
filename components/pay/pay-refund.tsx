/**
 * The payer's refund choice under an underpaid or overpaid order's status (docs/decisions/088):
 * "get back what I sent" or "claim the excess", a form posting to the page's server action
 * (app/pay/[orderId]/actions.ts, bound to the order); it works without JavaScript. After a post the
 * page says one thing whatever came of it: a link went to the order's e-mail address if it has
 * one, otherwise the payer asks the shop. The page never shows the address, nor whether there is one.
 */
import type { Language } from '@/lib/pay/i18n';
import type { PayerRefundMessages } from '@/lib/pay/payer-refund-messages';
import type { PublicOrderView } from '@/lib/pay/view';
import { formatAmount } from '@/lib/pay/format';
import { BUTTON, fill } from './ui';

/** What the page says after a post: `asked` (whatever came of it), or `busy` (rate-limited: nothing asked). */
export type PayerRefundNotice = 'asked' | 'busy' | null;

export function PayRefund({
  view,
  m,
  language,
  embed,
  notice,
  action,
}: {
  view: PublicOrderView;
  m: PayerRefundMessages;
  language: Language;
  embed: boolean;
  notice: PayerRefundNotice;
  /** The server action, bound to the order. */
  action: (form: FormData) => Promise<void>;
}) {
  const offer = view.refundOffer;
  const said = notice && (
    <p role="status" data-testid="payer-refund-notice" className="mt-3 text-sm font-medium">
      {notice === 'asked' ? fill(m.asked, { merchant: view.merchantName }) : m.busy}
    </p>
  );
  if (!offer || notice === 'asked') return said || null;
  const amount = `${formatAmount(offer.amount, language)} ${view.currency}`;
  return (
    <>
      {said}
      <form action={action} className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="payer-refund">
        <p className="text-sm">{fill(offer.kind === 'sent' ? m.sentNote : m.excessNote, { amount })}</p>
        <input type="hidden" name="kind" value={offer.kind} />
        <input type="hidden" name="lang" value={language} />
        {embed && <input type="hidden" name="embed" value="1" />}
        <button type="submit" className={BUTTON}>
          {offer.kind === 'sent' ? m.sentButton : m.excessButton}
        </button>
      </form>
    </>
  );
}
