/**
 * The transfers seen on the order's address: its payments (a progress bar of confirmations, k of
 * n, with the time the rest should take at the network's block time, then their status) and the
 * transfers that did not count for it (late, another currency, after the order was final), each
 * with its transaction id, ready to copy for the merchant.
 */
import { formatDuration, interpolate, plural } from '@/lib/pay/format';
import type { Language } from '@/lib/pay/i18n';
import type { Messages } from '@/lib/pay/messages';
import type { PublicOrderView, PublicPayment } from '@/lib/pay/view';
import { CopyButton } from './copy-button';
import { amountText } from './ui';

interface Props {
  view: PublicOrderView;
  m: Messages;
  language: Language;
}

export function Payments({ view, m, language }: Props) {
  if (view.payments.length === 0) return null;
  return (
    <section className="mt-4">
      <h2 className="font-semibold">{m.payments}</h2>
      <ul className="mt-1 space-y-2 text-sm">
        {view.payments.map((p) => (
          <li key={p.txid} data-testid="payment" className="rounded-md border border-line p-2">
            {amountText(p.amount, view.currency, language)}
            {p.status === 'detected' ? (
              <Confirmations payment={p} view={view} m={m} language={language} />
            ) : (
              `${m.separators.item}${m.paymentStatus[p.status]}`
            )}
            {transaction(p.txid, m)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "k of n confirmations · about 4 minutes to go" over a progress bar. */
function Confirmations({
  payment,
  view,
  m,
  language,
}: {
  payment: PublicPayment;
  view: PublicOrderView;
  m: Messages;
  language: Language;
}) {
  const n = view.requiredConfirmations;
  const k = Math.min(payment.confirmations, n);
  const count = interpolate(plural(language, m.confirmations, n), { k, n });
  const eta =
    k < n && view.blockSeconds > 0
      ? interpolate(m.confirmationsEta, { time: formatDuration((n - k) * view.blockSeconds, language) })
      : '';
  return (
    <span className="mt-1 block" data-testid="confirmations">
      <span>{eta ? `${count}${m.separators.item}${eta}` : count}</span>
      <span
        role="progressbar"
        aria-label={count}
        aria-valuemin={0}
        aria-valuemax={n}
        aria-valuenow={k}
        className="mt-1 block h-2 overflow-hidden rounded-full bg-line"
      >
        <span
          className="block h-full rounded-full bg-info-line transition-[width]"
          style={{ width: `${(k / n) * 100}%` }}
        />
      </span>
    </span>
  );
}

export function OtherTransfers({ view, m, language }: Props) {
  if (view.otherTransfers.length === 0) return null;
  return (
    <section className="mt-4">
      <h2 className="font-semibold">{m.otherTransfers}</h2>
      <p className="text-sm">{m.otherTransfersNote}</p>
      <ul className="mt-1 space-y-2 text-sm">
        {view.otherTransfers.map((t) => (
          <li key={t.txid} data-testid="other-transfer" className="rounded-md border border-line p-2">
            {amountText(t.amount, t.currency, language)}
            {t.late && `${m.separators.item}${m.lateLabel}`}
            {transaction(t.txid, m)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Transaction: {txid}" under a transfer, with its copy button. */
function transaction(txid: string, m: Messages) {
  return (
    <span className="mt-1 flex items-start justify-between gap-2">
      <span className="min-w-0">
        {`${m.transaction}${m.separators.label}`}
        <code dir="ltr" className="break-all">
          {txid}
        </code>
      </span>
      <CopyButton value={txid} label={m.copyTransaction} text={m.copy} done={m.copied} />
    </span>
  );
}
