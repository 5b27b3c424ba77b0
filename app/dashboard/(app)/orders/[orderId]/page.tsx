import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Amount, CARD, LINK, Mono, MUTED, PageBody, Section, Time, TxLink } from '@/components/dashboard/ui';
import { WebhookEvents } from '@/components/dashboard/webhook-events';
import { FollowOrder } from '@/components/live/follow-order';
import { LiveQueries } from '@/components/live/query-provider';
import { getDatabase } from '@/lib/db';
import { orderDetail } from '@/lib/dashboard';
import type { OrderMispayment } from '@/lib/mispayments';
import { formatUnits } from '@/lib/money';
import { decimalsOf } from '@/lib/orders';
import {
  listRefunds,
  paymentSenderAddress,
  refundablePayment,
  mayMarkNotSent,
  refundPayWays,
  refundRates,
  refundTronTransfer,
  refundWalletUri,
} from '@/lib/refunds';
import { walletTransaction } from '@/lib/pay/wallet-request';
import { addressPatterns, findNetwork } from '@/lib/catalog';
import { tronChainId } from '@/lib/chains';
import { can } from '@/lib/users';
import { cookies } from 'next/headers';
import { z } from 'zod';
import { requirePage } from '../../../session';
import { resendWebhook } from '../../actions';
import { decideMispaidOrder, refundMispaidOrder } from './actions';
import { ResentNotice } from '../../resent-notice';
import { firstValues, type SearchParams } from '../../search-params';
import { isFinalPlanStatus, newestRefundPlan, refundFeeEstimate } from '@/lib/payouts';
import { PLAN_REFUSAL_COOKIE } from '../../funds/plan-cookie';
import { claimLinksOf } from './claim-links';
import { CLAIM_LINK_COOKIE } from './refund-cookie';
import { RefundsSection, WITH_REASON, type RefundWallet } from './refunds-section';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CELL, DataTable } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Order' };

type Props = { params: Promise<{ orderId: string }>; searchParams: SearchParams };

export default async function OrderPage({ params, searchParams }: Props) {
  const session = await requirePage('view');
  const id = z.uuid().safeParse((await params).orderId);
  if (!id.success) notFound();
  const detail = await orderDetail(
    await getDatabase(),
    { merchantId: session.merchantId, mode: session.mode },
    id.data,
  );
  if (!detail) notFound();
  const { order, events, payments, orphanDeposits, webhooks, mispayment } = detail;
  const { resent, decided, refund } = firstValues(await searchParams);
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const refunds = await listRefunds(await getDatabase(), scope, { orderId: order.orderId, limit: 100, offset: 0 });
  const claimUrls = claimLinksOf((await cookies()).get(CLAIM_LINK_COOKIE)?.value);
  const planRefusal = refund && WITH_REASON.has(refund) ? (await cookies()).get(PLAN_REFUSAL_COOKIE)?.value : undefined;
  const canRefund = can(session.role, 'refunds');
  const refundable = order.status !== 'pending' && order.received !== '0';
  // The form's three rates (an invoice's order) and the fee estimate, read only for who may refund.
  const db = await getDatabase();
  const payment =
    canRefund && refundable
      ? await refundablePayment(db, scope, { kind: 'order', id: order.orderId }).catch(() => null)
      : null;
  const rates = payment && (await refundRates(db, session.mode, payment).catch(() => null));
  // The address the payment came from, offered as the refund's destination where there is one (decision 125).
  const sender = payment && (await paymentSenderAddress(db, session.mode, payment));
  const estimate = canRefund && refundable ? await refundFeeEstimate(order.network, session.mode) : null;
  const fee = estimate && {
    amount: formatUnits(estimate.fee, decimalsOf(order.network, order.currency)),
    feeRate: estimate.feeRate.toString(),
  };
  const refundPlans = Object.fromEntries(
    (
      await Promise.all(
        refunds
          .filter((r) => r.state !== 'awaiting_address' && r.state !== 'canceled')
          .map(
            async (r) =>
              [r.id, await newestRefundPlan(await getDatabase(), session.merchantId, session.mode, r.id)] as const,
          ),
      )
    ).flatMap(([id, plan]) =>
      plan
        ? [
            [
              id,
              {
                planId: plan.planId,
                status: plan.status,
                open: !isFinalPlanStatus(plan.status),
                // What the payer gets when the plan takes the network fee from the refund (decision 120).
                pays: plan.refund.feeFromRefund ? plan.refund.pays : null,
              },
            ],
          ]
        : [],
    ),
  );
  // How each refund may be paid now (lib/refunds' one rule): a refund an open plan pays offers no other way.
  const ways = Object.fromEntries(
    refunds.map((r) => {
      const plan = refundPlans[r.id];
      const facts = { ...r, openPlanId: plan?.open ? plan.planId : null };
      return [r.id, refundPayWays(facts, findNetwork(r.network)?.family)] as const;
    }),
  );
  // "Send with wallet": each EVM or Tron refund's exact transfer where it may be sent by hand, for who may refund;
  // a Tron one on the chain of the gateway's node, asked only when there is one (decision 130).
  const tron = findNetwork('tron')!;
  const tronChain =
    canRefund && session.mode === 'live' && refunds.some((r) => r.network === tron.name && ways[r.id]!.byHand)
      ? await tronChainId()
      : null;
  const wallets = Object.fromEntries(
    refunds.flatMap((r): [string, RefundWallet][] => {
      if (!canRefund || !ways[r.id]!.byHand) return [];
      const uri = refundWalletUri(r, session.mode);
      const transaction = uri && walletTransaction(uri);
      if (transaction) return [[r.id, { family: 'evm', transaction }]];
      const transfer = refundTronTransfer(r, session.mode, tronChain);
      return transfer ? [[r.id, { family: 'tron', transfer, accountPattern: addressPatterns(tron).addressRegex }]] : [];
    }),
  );
  // "Mark as not sent": a refund sent by hand whose transaction has been missing an hour (decision 129).
  const now = new Date();
  const markableNotSent = new Set(
    refunds.filter((r) => r.missingSince && mayMarkNotSent(new Date(r.missingSince), now)).map((r) => r.id),
  );
  const back = `/dashboard/orders/${order.orderId}`;
  return (
    <PageBody
      title={`Order ${order.clientOrderId}`}
      description={<Mono>{order.orderId}</Mono>}
      back={{ href: '/dashboard/orders', label: 'Orders' }}
    >
      <ResentNotice resent={resent} />
      {order.status === 'pending' && (
        <LiveQueries>
          <FollowOrder
            orderId={order.orderId}
            shown={{ status: order.status, received: order.received, payments: payments.length }}
          />
        </LiveQueries>
      )}

      <dl className={`${CARD} grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]`}>
        <dt className={MUTED}>Status</dt>
        <dd>
          <StatusBadge status={order.status} />
          {order.message ? ` ${order.message}` : ''}
        </dd>
        <dt className={MUTED}>Amount</dt>
        <dd>
          <Amount value={order.amount} currency={order.currency} />
        </dd>
        <dt className={MUTED}>Received</dt>
        <dd>
          <Amount value={order.received} currency={order.currency} />
        </dd>
        <dt className={MUTED}>Network</dt>
        <dd>{order.network}</dd>
        <dt className={MUTED}>Address</dt>
        <dd>
          <Mono>{order.address}</Mono>
          {order.tag ? (
            <>
              {' '}
              (tag <Mono>{order.tag}</Mono>)
            </>
          ) : null}
        </dd>
        <dt className={MUTED}>Created</dt>
        <dd>
          <Time value={order.createdAt} />
        </dd>
        <dt className={MUTED}>Expires</dt>
        <dd>
          <Time value={order.expiresAt} />
        </dd>
        {order.invoiceId ? (
          <>
            <dt className={MUTED}>Invoice</dt>
            <dd>
              <Link href={`/dashboard/invoices/${order.invoiceId}`} className={LINK}>
                <Mono>{order.invoiceId}</Mono>
              </Link>
            </dd>
          </>
        ) : null}
      </dl>

      {mispayment && (
        <MispaymentSection
          orderId={order.orderId}
          currency={order.currency}
          mispayment={mispayment}
          canDecide={can(session.role, 'settings')}
          canRefund={can(session.role, 'refunds')}
          decided={decided}
        />
      )}
      <RefundsSection
        orderId={order.orderId}
        currency={order.currency}
        refunds={refunds}
        canRefund={canRefund}
        refundable={refundable}
        outcome={refund}
        claimUrls={claimUrls}
        plans={refundPlans}
        planRefusal={planRefusal}
        rates={rates}
        sender={sender}
        fee={fee}
        ways={ways}
        wallets={wallets}
        markableNotSent={markableNotSent}
      />

      <Section title="Timeline" id="timeline">
        <ol className="flex flex-col gap-1 border-l-2 border-line pl-4 text-sm">
          <li>
            <Time value={order.createdAt} /> · created, <StatusBadge status="pending" />
          </li>
          {events.map((e) => (
            <li key={`${e.at.toISOString()}:${e.toStatus}`}>
              <Time value={e.at} />
              {` · ${e.fromStatus} → `}
              <StatusBadge status={e.toStatus} />
              {e.message ? ` ${e.message}` : ''}
            </li>
          ))}
        </ol>
      </Section>

      <Section title="Payments" id="payments">
        {payments.length === 0 ? (
          <p className={`text-sm ${MUTED}`}>No payment seen yet.</p>
        ) : (
          <DataTable
            caption="Payments of this order"
            head={['Seen', 'Transaction', 'Amount', 'Confirmations', 'Status']}
          >
            {payments.map((p) => (
              <tr key={p.id}>
                <td className={CELL}>
                  <Time value={p.createdAt} />
                </td>
                <td className={CELL}>
                  <TxLink hash={p.txHash} url={p.explorerUrl} />
                </td>
                <td className={CELL}>
                  <Amount value={p.amount} currency={p.currency} />
                </td>
                <td className={`${CELL} whitespace-nowrap`}>{`${p.confirmations} of ${p.requiredConfirmations}`}</td>
                <td className={CELL}>
                  <StatusBadge status={p.status} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>

      <Section title="Orphan deposits" id="deposits">
        {orphanDeposits.length === 0 ? (
          <p className={`text-sm ${MUTED}`}>None: every transfer to this address counted for the order.</p>
        ) : (
          <DataTable caption="Orphan deposits of this order" head={['Seen', 'Transaction', 'Amount', 'Status']}>
            {orphanDeposits.map((d) => (
              <tr key={d.id}>
                <td className={CELL}>
                  <Time value={d.createdAt} />
                </td>
                <td className={CELL}>
                  <TxLink hash={d.inTransaction.txId} url={d.explorerUrl} />
                </td>
                <td className={CELL}>
                  <Amount value={d.amount} currency={d.currency} />
                </td>
                <td className={CELL}>
                  <StatusBadge status={d.status} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>

      <Section title="Webhooks" id="webhooks">
        <WebhookEvents events={webhooks} resend={can(session.role, 'resend') ? resendWebhook : undefined} back={back} />
      </Section>
    </PageBody>
  );
}

const SETTLED_HOW: Record<NonNullable<OrderMispayment['settlement']>['kind'], string> = {
  remainder_paid: 'the payer paid the rest',
  accepted: 'what arrived was accepted',
  left: 'left as it is',
  refunded: 'what arrived was refunded',
};
const DECIDED_BY: Record<NonNullable<OrderMispayment['settlement']>['decidedBy'], string> = {
  payer: 'the payer',
  rule: 'your late-payment rule',
  merchant: 'your team',
};
const DECIDED_NOTICE: Record<string, string> = {
  accept: 'Accepted: the order is settled, and your store was told (order.resolved).',
  leave: 'Left as it is: the order is settled, and your store was told (order.resolved).',
  refund:
    "Refunded: the refund waits for the payer's address (the network fee comes out of it); the order is settled, and your store was told (order.resolved).",
  refunds:
    "Refunded, one refund per payment: each waits for the payer's address (the network fee comes out of it); the order is settled, and your store was told (order.resolved). Each refund's claim link is shown once below, to share with the payer.",
  none: 'Nothing was left to decide: the order was settled meanwhile.',
  refunding: 'Nothing was decided: what arrived is being refunded. Cancel that refund below to decide otherwise.',
};
const REFUNDED_BY: Record<NonNullable<OrderMispayment['refundedBy']>, string> = {
  payer: 'its payer asked for what they sent back on the payment page',
  team: 'your team refunded it',
};

/**
 * The order's mispayment (docs/decisions/069): the chain of linked orders (the order it pays the
 * rest of, its remainder), its late payments, its settlement, and the decision while it waits.
 */
function MispaymentSection({
  orderId,
  currency,
  mispayment,
  canDecide,
  canRefund,
  decided,
}: {
  orderId: string;
  currency: string;
  mispayment: OrderMispayment;
  /** Accept or leave: owners and admins (`settings`). */
  canDecide: boolean;
  /** Refund what arrived: `refunds`. */
  canRefund: boolean;
  decided: string | undefined;
}) {
  const { settlement } = mispayment;
  return (
    <Section title="Mispayment" id="mispayment">
      {decided && DECIDED_NOTICE[decided] ? (
        <p role="status" className="mb-2 text-sm font-medium">
          {DECIDED_NOTICE[decided]}
        </p>
      ) : null}
      <dl className={`${CARD} grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]`}>
        {mispayment.remainderOf ? (
          <>
            <dt className={MUTED}>Rest of order</dt>
            <dd>
              <Link href={`/dashboard/orders/${mispayment.remainderOf}`} className={LINK}>
                <Mono>{mispayment.remainderOf}</Mono>
              </Link>
            </dd>
          </>
        ) : null}
        {mispayment.late !== '0' ? (
          <>
            <dt className={MUTED}>Paid late</dt>
            <dd>
              <Amount value={mispayment.late} currency={currency} />
            </dd>
          </>
        ) : null}
        {mispayment.rest ? (
          <>
            <dt className={MUTED}>Remainder order</dt>
            <dd data-testid="remainder-order">
              <Link href={`/dashboard/orders/${mispayment.rest.orderId}`} className={LINK}>
                <Mono>{mispayment.rest.orderId}</Mono>
              </Link>{' '}
              <StatusBadge status={mispayment.rest.status} />
            </dd>
          </>
        ) : mispayment.restLeft ? (
          <>
            <dt className={MUTED}>Rest the payer may pay</dt>
            <dd>
              <Amount value={mispayment.restLeft} currency={currency} />
            </dd>
          </>
        ) : null}
        {settlement ? (
          <>
            <dt className={MUTED}>Settled</dt>
            <dd data-testid="settlement">
              {`${SETTLED_HOW[settlement.kind]}, by ${DECIDED_BY[settlement.decidedBy]}, with `}
              <Amount value={settlement.totalReceived} currency={currency} />
              {' received in all · '}
              <Time value={settlement.at} />
            </dd>
          </>
        ) : null}
      </dl>
      {mispayment.waiting ? (
        canDecide || canRefund ? (
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <p className="w-full text-sm">
              This order waits for your decision. Its status stays; the decision is recorded, audited and sent to your
              store as <Mono>order.resolved</Mono>. A refund pays back each payment that arrived, less the network fee,
              to the address the payer gives through a claim link.
            </p>
            {canDecide
              ? (['accept', 'leave'] as const).map((decision) => (
                  <form key={decision} action={decideMispaidOrder}>
                    <input type="hidden" name="orderId" value={orderId} />
                    <input type="hidden" name="decision" value={decision} />
                    <Button type="submit" variant={decision === 'accept' ? 'primary' : 'secondary'}>
                      {decision === 'accept' ? 'Accept what arrived' : 'Leave as it is'}
                    </Button>
                  </form>
                ))
              : null}
            {canRefund ? (
              <form action={refundMispaidOrder}>
                <input type="hidden" name="orderId" value={orderId} />
                <Button type="submit" variant="secondary">
                  Refund what arrived
                </Button>
              </form>
            ) : null}
          </div>
        ) : (
          <p className={`mt-3 text-sm ${MUTED}`}>This order waits for a decision by an owner or an admin.</p>
        )
      ) : mispayment.refundedBy ? (
        <p className="mt-3 text-sm" data-testid="no-decision-refunding">
          {`No decision is possible: what arrived is being refunded (${REFUNDED_BY[mispayment.refundedBy]}; see Refunds below). Cancel that refund to accept or leave the payment instead.`}
        </p>
      ) : null}
    </Section>
  );
}
