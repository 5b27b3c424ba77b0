/**
 * The transfers seen on the order's address: its payments (confirmations so far, then their
 * status) and the transfers that did not count for it (late, another currency, after the order
 * was final), each with its transaction id.
 */
import { interpolate } from '@/lib/pay/format';
import type { Messages } from '@/lib/pay/messages';
import type { PublicOrderView } from '@/lib/pay/view';
import { amountText } from './ui';

export function Payments({ view, m }: { view: PublicOrderView; m: Messages }) {
  if (view.payments.length === 0) return null;
  return (
    <section className="mt-4">
      <h2 className="font-semibold">{m.payments}</h2>
      <ul className="mt-1 space-y-2 text-sm">
        {view.payments.map((p) => (
          <li key={p.txid} data-testid="payment" className="rounded-md border border-slate-300 p-2 dark:border-slate-600">
            {amountText(p.amount, view.currency)}
            {' · '}
            {p.status === 'detected' ? interpolate(m.confirmations, { k: p.confirmations, n: view.requiredConfirmations }) : m.paymentStatus[p.status]}
            {transaction(p.txid, m)}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function OtherTransfers({ view, m }: { view: PublicOrderView; m: Messages }) {
  if (view.otherTransfers.length === 0) return null;
  return (
    <section className="mt-4">
      <h2 className="font-semibold">{m.otherTransfers}</h2>
      <p className="text-sm">{m.otherTransfersNote}</p>
      <ul className="mt-1 space-y-2 text-sm">
        {view.otherTransfers.map((t) => (
          <li key={t.txid} data-testid="other-transfer" className="rounded-md border border-slate-300 p-2 dark:border-slate-600">
            {amountText(t.amount, t.currency)}
            {t.late && ` · ${m.lateLabel}`}
            {transaction(t.txid, m)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Transaction: {txid}" under a transfer. */
function transaction(txid: string, m: Messages) {
  return (
    <span className="block">
      {`${m.transaction}: `}
      <code dir="ltr" className="break-all">{txid}</code>
    </span>
  );
}
