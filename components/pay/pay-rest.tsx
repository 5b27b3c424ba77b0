/**
 * "Pay the rest" (docs/decisions/069) under an underpaid or paid-late order's status: a form posting
 * to the page's server action (app/pay/[orderId]/actions.ts, bound to the order), which opens the
 * order's one remainder order (the same one each time) and redirects to its page; it works without
 * JavaScript. A settled order says so instead, and so does one whose payment is being refunded
 * (docs/decisions/102).
 */
import type { Language } from '@/lib/pay/i18n';
import type { RestMessages } from '@/lib/pay/rest-messages';
import type { PublicOrderView } from '@/lib/pay/view';
import { formatAmount } from '@/lib/pay/format';
import { BUTTON, fill } from './ui';

export function PayRest({
  view,
  m,
  language,
  embed,
  action,
}: {
  view: PublicOrderView;
  m: RestMessages;
  language: Language;
  embed: boolean;
  /** The server action, bound to the order. */
  action: (form: FormData) => Promise<void>;
}) {
  const { rest } = view;
  if (!rest) return null;
  if (rest.settled || rest.refunding)
    return (
      <p data-testid={rest.settled ? 'rest-settled' : 'rest-refunding'} className="mt-3 text-sm font-medium">
        {rest.settled ? m.settled : m.refunding}
      </p>
    );
  return (
    <form action={action} className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="pay-rest">
      {rest.left && (
        <p className="text-sm" data-testid="rest-left">
          {fill(m.payRestNote, { amount: `${formatAmount(rest.left, language)} ${view.currency}` })}
        </p>
      )}
      {embed && <input type="hidden" name="embed" value="1" />}
      <button type="submit" className={BUTTON}>
        {m.payRest}
      </button>
    </form>
  );
}
