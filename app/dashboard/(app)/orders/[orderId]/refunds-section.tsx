/**
 * The order page's refunds (docs/refunds.md): the order's refunds with their state and address,
 * and for a user with the `refunds` permission the form that makes one (in the order's coin) and
 * each open refund's "Cancel" and "Reopen claim", and "Approve" on one above the owner's threshold
 * (a second person's: decision 082). Plain forms: they work without JavaScript.
 */
import Link from 'next/link';
import { Amount, LINK, Mono, MUTED, Notice, Section, Time } from '@/components/dashboard/ui';
import type { RefundResponse } from '@/lib/protocol';
import {
  approveRefundAction,
  cancelRefundAction,
  makeRefundAction,
  planRefundAction,
  reopenRefundAction,
} from './refund-actions';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { CELL, DataTable } from '@/components/ui/table';

const OUTCOMES: Record<string, { tone: 'info' | 'error' | 'success'; text: string }> = {
  made: { tone: 'success', text: 'Refund made: it waits for the payer to give an address.' },
  canceled: { tone: 'success', text: 'Refund canceled: its amount can be refunded again.' },
  reopened: { tone: 'success', text: 'Claim reopened: the old link no longer works.' },
  approved: { tone: 'success', text: 'Refund approved: it may be sent.' },
  invalid: { tone: 'error', text: 'The amount is not a decimal number.' },
  refused: { tone: 'error', text: 'This order cannot be refunded that way (still pending, or too many decimals).' },
  exceeds: { tone: 'error', text: 'That is more than is left to refund of what this order received.' },
  state: {
    tone: 'error',
    text: "The refund's state no longer allows this (a refund is approved once, by someone other than who made it).",
  },
  unknown: { tone: 'error', text: 'No such refund or order.' },
  busy: { tone: 'error', text: 'The gateway is busy: try again.' },
  plan: { tone: 'error', text: 'The plan could not be prepared:' },
};

export function RefundsSection({
  orderId,
  currency,
  refunds,
  canRefund,
  refundable,
  outcome,
  claimUrl,
  plans,
  planRefusal,
}: {
  orderId: string;
  currency: string;
  refunds: RefundResponse[];
  canRefund: boolean;
  /** The order is decided and received something. */
  refundable: boolean;
  outcome: string | undefined;
  /** A claim link just made, to share with the payer (shown once). */
  claimUrl: string | undefined;
  /** Each refund's newest plan, by refund id. */
  plans: Readonly<Record<string, { planId: string; status: string }>>;
  /** Why a plan was just refused, in lib/payouts' words. */
  planRefusal: string | undefined;
}) {
  const said = outcome ? OUTCOMES[outcome] : undefined;
  return (
    <Section title="Refunds" id="refunds">
      {said && (
        <Notice tone={said.tone}>{`${said.text}${outcome === 'plan' && planRefusal ? ` ${planRefusal}.` : ''}`}</Notice>
      )}
      {claimUrl && (
        <p className="my-2 text-sm">
          Claim link for the payer (shown once; mailed to them when the order has their address):{' '}
          <Mono>{claimUrl}</Mono>
        </p>
      )}
      {refunds.length === 0 ? (
        <p className={`text-sm ${MUTED}`}>No refund.</p>
      ) : (
        <DataTable caption="Refunds of this order" head={['Made', 'Amount', 'State', 'Address', '']}>
          {refunds.map((r) => (
            <tr key={r.id}>
              <td className={CELL}>
                <Time value={r.createdAt} />
              </td>
              <td className={CELL}>
                <Amount value={r.amount} currency={r.currency} />
              </td>
              <td className={CELL}>
                {r.state.replace('_', ' ')}
                {r.approval === 'required' && <span className="block">needs a second person’s approval</span>}
                {plans[r.id] && (
                  <Link href={`/dashboard/funds/plans/${plans[r.id]!.planId}`} className={`${LINK} block`}>
                    {`plan: ${plans[r.id]!.status}`}
                  </Link>
                )}
              </td>
              <td className={CELL}>{r.address ? <Mono>{r.address}</Mono> : <span className={MUTED}>not yet</span>}</td>
              <td className={CELL}>
                {canRefund && (r.state === 'awaiting_address' || r.state === 'ready') && (
                  <span className="flex flex-wrap gap-2">
                    {r.state === 'ready' && r.approval !== 'required' && (
                      <form action={planRefundAction} className="flex flex-wrap items-center gap-2">
                        <input type="hidden" name="orderId" value={orderId} />
                        <input type="hidden" name="refundId" value={r.id} />
                        <label className="text-sm">
                          <input type="checkbox" name="feeFromRefund" className="mr-1" />
                          fee from the refund
                        </label>
                        <Button type="submit" variant="secondary">
                          Prepare plan
                        </Button>
                      </form>
                    )}
                    {r.approval === 'required' && (
                      <form action={approveRefundAction}>
                        <input type="hidden" name="orderId" value={orderId} />
                        <input type="hidden" name="refundId" value={r.id} />
                        <Button type="submit" variant="secondary">
                          Approve
                        </Button>
                      </form>
                    )}
                    <form action={reopenRefundAction}>
                      <input type="hidden" name="orderId" value={orderId} />
                      <input type="hidden" name="refundId" value={r.id} />
                      <Button type="submit" variant="secondary">
                        Reopen claim
                      </Button>
                    </form>
                    <form action={cancelRefundAction}>
                      <input type="hidden" name="orderId" value={orderId} />
                      <input type="hidden" name="refundId" value={r.id} />
                      <Button type="submit" variant="secondary">
                        Cancel
                      </Button>
                    </form>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {canRefund && refundable && (
        <form action={makeRefundAction} className="mt-4 flex flex-wrap items-end gap-2">
          <input type="hidden" name="orderId" value={orderId} />
          <Label>
            {`Refund amount (${currency})`}
            <Input name="amount" required inputMode="decimal" autoComplete="off" />
          </Label>
          <Button type="submit" variant="primary">
            Refund
          </Button>
        </form>
      )}
    </Section>
  );
}
