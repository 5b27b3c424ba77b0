/**
 * The order page's refunds (docs/refunds.md): the order's refunds with their state and address,
 * and for a user with the `refunds` permission the form that makes one (in the order's coin) and
 * each open refund's "Cancel" and "Reopen claim", "Approve" on one above the owner's threshold
 * (a second person's: decision 082), and "Sent by hand" with a transaction id on a ready refund,
 * "Check again" on one sent so (decision 092); on one whose transaction the node has missed since a
 * time, that time, and after an hour "Mark as not sent" (decision 129). A claim link just made is shown once beside its
 * refund, each of several (decision 102). Plain forms: they work without JavaScript; a ready EVM
 * refund also offers "Send with wallet" beside its transaction id (decision 098). Each refund offers
 * the ways lib/refunds' one rule allows (`ways`, decision 116): while an open plan pays it, neither
 * "Sent by hand" nor "Send with wallet", and the fee rate field only where a plan takes one.
 */
import Link from 'next/link';
import { Amount, LINK, Mono, MUTED, Notice, Section, Time } from '@/components/dashboard/ui';
import type { RefundResponse } from '@/lib/protocol';
import type { RefundPayWays, RefundRates, TronWalletTransfer } from '@/lib/refunds';
import {
  approveRefundAction,
  cancelRefundAction,
  completeRefundAction,
  makeRefundAction,
  markRefundNotSentAction,
  planRefundAction,
  recordWalletRefundAction,
  reopenRefundAction,
  type WalletRefundRecord,
} from './refund-actions';
import { RefundTronLinkButton } from './refund-tronlink-button';
import { RefundWalletButton } from './refund-wallet-button';
import type { WalletTransaction } from '@/lib/pay/wallet-request';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { CELL, DataTable } from '@/components/ui/table';

const OUTCOMES: Record<string, { tone: 'info' | 'error' | 'success'; text: string }> = {
  made: { tone: 'success', text: 'Refund made: it waits for the payer to give an address.' },
  'made-to-sender': { tone: 'success', text: 'Refund made to the address the payment came from: it is ready to send.' },
  canceled: { tone: 'success', text: 'Refund canceled: its amount can be refunded again.' },
  reopened: { tone: 'success', text: 'Claim reopened: the old link no longer works.' },
  approved: { tone: 'success', text: 'Refund approved: it may be sent.' },
  invalid: { tone: 'error', text: 'The amount (or your own rate) is not a decimal number.' },
  'fee-rate': {
    tone: 'error',
    text: 'The fee rate is a whole number of base units per vbyte (or empty for the node’s estimate): nothing was prepared.',
  },
  rate: { tone: 'error', text: "No current rate is available now: use the invoice's rate or your own." },
  refused: { tone: 'error', text: 'This order cannot be refunded that way (still pending, or too many decimals).' },
  exceeds: { tone: 'error', text: 'That is more than is left to refund of what this order received.' },
  sender: {
    tone: 'error',
    text: 'This payment did not come from one address a refund can go back to: refund by claim link.',
  },
  state: { tone: 'error', text: "The refund's state does not allow this:" },
  unknown: { tone: 'error', text: 'No such refund or order.' },
  busy: { tone: 'error', text: 'The gateway is busy: try again.' },
  plan: { tone: 'error', text: 'The plan could not be prepared:' },
  completed: { tone: 'success', text: 'Transaction verified on chain: the refund is sent, or confirmed.' },
  'not-sent': {
    tone: 'success',
    text: 'Refund marked not sent: it failed, the payer was not paid, and a new refund of its amount can be made.',
  },
  transaction: { tone: 'error', text: 'This transaction does not complete the refund:' },
  node: { tone: 'error', text: "The network's node did not answer: try again shortly." },
};
const RATE = 'flex flex-col gap-1 rounded border border-line p-2 text-sm';
/** Outcomes followed by lib's own reason (carried by cookie: refund-actions.ts). */
export const WITH_REASON: ReadonlySet<string> = new Set(['plan', 'transaction', 'state']);

/** What a browser wallet is asked to send for a refund: an EVM request, or a Tron transfer for TronLink. */
export type RefundWallet =
  | { family: 'evm'; transaction: WalletTransaction }
  | { family: 'tron'; transfer: TronWalletTransfer; accountPattern: string };

function RefundWalletChoice({
  wallet,
  ...recording
}: {
  wallet: RefundWallet;
  record: (txId: string) => Promise<WalletRefundRecord>;
  txIdField: string;
}) {
  return wallet.family === 'evm' ? (
    <RefundWalletButton transaction={wallet.transaction} {...recording} />
  ) : (
    <RefundTronLinkButton transfer={wallet.transfer} accountPattern={wallet.accountPattern} {...recording} />
  );
}

export function RefundsSection({
  orderId,
  currency,
  refunds,
  canRefund,
  refundable,
  outcome,
  claimUrls,
  plans,
  planRefusal,
  rates,
  sender,
  fee,
  ways,
  wallets,
  markableNotSent,
}: {
  orderId: string;
  currency: string;
  refunds: RefundResponse[];
  canRefund: boolean;
  /** The order is decided and received something. */
  refundable: boolean;
  outcome: string | undefined;
  /** Claim links just made, by refund id, to share with the payer (each shown once, beside its refund). */
  claimUrls: ReadonlyMap<string, string>;
  /** Each refund's newest plan, by refund id; `open` while it may still pay it (prepared or broadcast). */
  /** `pays`: what the payer gets when the plan takes the network fee from the refund; null when it pays it whole. */
  plans: Readonly<Record<string, { planId: string; status: string; open: boolean; pays: string | null }>>;
  /** Why a plan, a transaction or a change of state was just refused, in lib's words. */
  planRefusal: string | undefined;
  /** An invoice's order: the invoice's currency and its rate, the current rate (null: none now). */
  rates: RefundRates | null;
  /** The one address the order's payments came from, offered as the refund's destination (decision 125); null: none. */
  sender: string | null;
  /** The network fee of one refund at the node's estimate, in the coin; null without one. */
  fee: { amount: string; feeRate: string } | null;
  /** How each refund may be paid now, by refund id (lib/refunds refundPayWays). */
  ways: Readonly<Record<string, RefundPayWays>>;
  /** The browser wallet's transfer of each ready EVM or Tron refund (live mode), by refund id. */
  wallets: Readonly<Record<string, RefundWallet>>;
  /** The refunds sent by hand whose transaction has been missing long enough to be marked not sent (lib/refunds mayMarkNotSent). */
  markableNotSent: ReadonlySet<string>;
}) {
  const said = outcome ? OUTCOMES[outcome] : undefined;
  return (
    <Section title="Refunds" id="refunds">
      {said && (
        <Notice tone={said.tone}>
          {`${said.text}${outcome && WITH_REASON.has(outcome) && planRefusal ? ` ${planRefusal.replace(/\.$/, '')}.` : ''}`}
        </Notice>
      )}
      {refunds.some((r) => claimUrls.has(r.id)) && (
        <p className="my-2 text-sm">
          Each new claim link for the payer is shown once, beside its refund; it was also mailed to them when the order
          has their address.
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
                {claimUrls.has(r.id) ? (
                  <span className="block break-all" data-testid="claim-link">
                    claim link (shown once): <Mono>{claimUrls.get(r.id)}</Mono>
                  </span>
                ) : r.claim.delivery === 'sender' ? (
                  <span className={`block ${MUTED}`}>to the address the payment came from</span>
                ) : r.state === 'awaiting_address' ? (
                  <span className={`block ${MUTED}`}>
                    {r.claim.delivery === 'mail'
                      ? 'claim link mailed to the payer'
                      : 'claim link shown once when made; Reopen claim for a new one'}
                  </span>
                ) : null}
                {r.txId && (
                  <span className="block">
                    tx <Mono>{r.txId}</Mono>
                  </span>
                )}
                {r.state === 'sent' && r.missingSince && (
                  <span className="block" data-testid="refund-missing">
                    {`Your node has not found transaction ${r.txId} since `}
                    <Time value={r.missingSince} />
                    {': it may have been dropped or replaced.'}
                  </span>
                )}
                {r.state === 'failed' && r.missingSince && (
                  <span className="block" data-testid="refund-not-sent">
                    Marked not sent: the payer was not paid by this refund. A new refund can be made.
                  </span>
                )}
                {plans[r.id] && (
                  <Link href={`/dashboard/funds/plans/${plans[r.id]!.planId}`} className={`${LINK} block`}>
                    {`plan: ${plans[r.id]!.status}`}
                  </Link>
                )}
                {plans[r.id]?.pays && (
                  <span className="block" data-testid="plan-pays">
                    {'pays '}
                    <Amount value={plans[r.id]!.pays!} currency={r.currency} />
                    {', the network fee taken from the refund'}
                  </span>
                )}
                {plans[r.id]?.open && r.state === 'ready' && (
                  <span className="block" data-testid="open-plan">
                    This plan pays the refund: sign it with the signer, and the refund follows its transaction. To pay
                    it another way, cancel the refund first (its plan is discarded) and make a new one, and only if the
                    plan was never signed.
                  </span>
                )}
              </td>
              <td className={CELL}>{r.address ? <Mono>{r.address}</Mono> : <span className={MUTED}>not yet</span>}</td>
              <td className={CELL}>
                {canRefund && r.state === 'sent' && r.txId && (
                  <form action={completeRefundAction}>
                    <input type="hidden" name="orderId" value={orderId} />
                    <input type="hidden" name="refundId" value={r.id} />
                    <input type="hidden" name="txId" value={r.txId} />
                    <Button type="submit" variant="secondary">
                      Check again
                    </Button>
                  </form>
                )}
                {canRefund && r.state === 'sent' && markableNotSent.has(r.id) && (
                  <form action={markRefundNotSentAction}>
                    <input type="hidden" name="orderId" value={orderId} />
                    <input type="hidden" name="refundId" value={r.id} />
                    <Button type="submit" variant="secondary">
                      Mark as not sent
                    </Button>
                  </form>
                )}
                {canRefund && (r.state === 'awaiting_address' || r.state === 'ready') && (
                  <span className="flex flex-wrap gap-2">
                    {ways[r.id]?.plan && (
                      <form action={planRefundAction} className="flex flex-wrap items-center gap-2">
                        <input type="hidden" name="orderId" value={orderId} />
                        <input type="hidden" name="refundId" value={r.id} />
                        <label className="text-sm">
                          <input type="checkbox" name="feeFromRefund" className="mr-1" />
                          fee from the refund
                        </label>
                        {ways[r.id]!.feeRate && (
                          <Label>
                            Fee rate per vbyte (empty: the node’s estimate)
                            <Input name="feeRate" inputMode="numeric" maxLength={10} autoComplete="off" />
                          </Label>
                        )}
                        <Button type="submit" variant="secondary">
                          Prepare plan
                        </Button>
                      </form>
                    )}
                    {ways[r.id]?.byHand && (
                      <form action={completeRefundAction} className="flex flex-wrap items-end gap-2">
                        <input type="hidden" name="orderId" value={orderId} />
                        <input type="hidden" name="refundId" value={r.id} />
                        <Label>
                          Sent by hand: transaction id
                          <Input id={`refund-tx-${r.id}`} name="txId" required autoComplete="off" spellCheck={false} />
                        </Label>
                        <Button type="submit" variant="secondary">
                          Complete
                        </Button>
                        {wallets[r.id] && (
                          <RefundWalletChoice
                            wallet={wallets[r.id]!}
                            record={recordWalletRefundAction.bind(null, orderId, r.id)}
                            txIdField={`refund-tx-${r.id}`}
                          />
                        )}
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
        <form action={makeRefundAction} className="mt-4 flex flex-col gap-3">
          <input type="hidden" name="orderId" value={orderId} />
          <Label className="max-w-xs">
            {rates ? `Refund amount (${currency}, or ${rates.fiat} below)` : `Refund amount (${currency})`}
            <Input name="amount" required inputMode="decimal" autoComplete="off" />
          </Label>
          {rates && (
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-medium">The amount is in</legend>
              <label className="text-sm">
                <input type="radio" name="priceIn" value="coin" defaultChecked className="mr-1" />
                {currency}, the coin
              </label>
              <label className="text-sm">
                <input type="radio" name="priceIn" value="fiat" className="mr-1" />
                {`${rates.fiat}, converted at the rate chosen here (price of 1 ${currency}, rounded down):`}
              </label>
              <div className="grid gap-2 pl-5 sm:grid-cols-3">
                <label className={RATE}>
                  <input type="radio" name="rate" value="invoice" defaultChecked className="mr-1" />
                  {"The invoice's rate"}
                  <Mono>{`${rates.invoice} ${rates.fiat}`}</Mono>
                </label>
                <label className={RATE}>
                  <input type="radio" name="rate" value="current" disabled={!rates.current} className="mr-1" />
                  The current rate
                  {rates.current ? (
                    <Mono>{`${rates.current} ${rates.fiat}`}</Mono>
                  ) : (
                    <span className={MUTED}>none now</span>
                  )}
                </label>
                <label className={RATE}>
                  <input type="radio" name="rate" value="custom" className="mr-1" />
                  {`Your own rate (${rates.fiat})`}
                  <Input
                    name="customRate"
                    inputMode="decimal"
                    autoComplete="off"
                    aria-label={`Your own rate in ${rates.fiat}`}
                  />
                </label>
              </div>
            </fieldset>
          )}
          <p className="text-sm">
            {fee
              ? `Network fee estimate: about ${fee.amount} ${currency} (${fee.feeRate} base units per vbyte, one input and the change).`
              : 'Network fee estimate: none here (test mode, or a network whose refunds you send from your own wallet, which sets the fee).'}
          </p>
          <label className="text-sm">
            <input type="checkbox" name="feeFromRefund" className="mr-1" />
            Take the network fee from the refund (the payer receives the refund less the fee)
          </label>
          {sender && (
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-medium">Refund to</legend>
              <label className="text-sm">
                <input type="radio" name="to" value="claim" defaultChecked className="mr-1" />
                The address the payer gives by claim link
              </label>
              <label className="text-sm break-all">
                <input type="radio" name="to" value="sender" className="mr-1" />
                Refund to the address it came from (<Mono>{sender}</Mono>)
              </label>
              <p className={`text-sm ${MUTED}`}>
                Exchange deposit addresses often cannot receive refunds: if the payer paid from an exchange, send them
                the claim link instead.
              </p>
            </fieldset>
          )}
          <div>
            <Button type="submit" variant="primary">
              Refund
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}
