import 'server-only';
/**
 * Applies the order state machine (lib/orders/lifecycle) to what the watcher observed, inside the
 * caller's transaction: the order rows are locked first, so a payment and the expiry sweeper racing
 * on one order are evaluated one after the other and the order is decided once. The merchant-facing
 * rows (`payments`, `deposits`) are rewritten from the evaluation, so they never disagree with it;
 * a transfer that is no payment is written as the deposit state machine (lib/deposits) decides.
 *
 * Settling is batched (docs/decisions/040): all the orders a step touched are locked with one
 * statement, their transfers read with one, each is evaluated by the pure `evaluateOrder`, and each
 * kind of row is then written for all of them with one statement (`unnest` of one array per
 * column). A block costs the same dozen statements whether it settles one order or a hundred; the
 * expiry sweeper's single order goes through the same code with one id.
 */
import { confirmationsOf } from '../chains';
import {
  addresses,
  bare,
  chainTransfers,
  columnsOf,
  deposits,
  orderEvents,
  orders,
  param,
  payments,
  sql,
  statement,
  unnest,
  type Queryable,
  type RowOf,
} from '../db';
import { incomingWrite, kindOf, type IncomingWrite } from '../deposits';
import { followOrders } from '../invoices';
import { log } from '../log';
import { acceptLatePayments, resolvePaidRemainders } from '../mispayments';
import { enqueueOrderMails, payerMailOf, type PayerMailKind } from '../mail';
import { evaluateOrder, type Evaluation, type ObservedTransfer, type SettledRole, type TransferRole } from '../orders';
import { FINAL_STATUSES, type OrderStatus } from '../protocol';
import type { RiskScreen } from '../risk';
import { publishDepositEvents, publishOrderEvents } from '../webhooks';

/** What the watcher knows of its chain when it evaluates. */
export interface ChainView {
  now: Date;
  /** Height of the chain tip the watcher has scanned to. */
  tipHeight: number;
  /** Chain time at that tip (./chain-time): orders that expired before it are past their deadline on-chain too. */
  tipTime: Date;
  requiredConfirmations: number;
  screen: RiskScreen;
}

/** The `chain_transfers` columns settling reads (all but `created_at`). */
const TRANSFER_COLUMNS = [
  'id',
  'network',
  'mode',
  'tx_hash',
  'output_index',
  'address_id',
  'order_id',
  'merchant_id',
  'currency',
  'amount',
  'sender',
  'block_height',
  'first_seen_at',
  'dropped',
  'settled_role',
  'tag',
] as const satisfies readonly (keyof RowOf<typeof chainTransfers>)[];
type TransferRow = Pick<RowOf<typeof chainTransfers>, (typeof TRANSFER_COLUMNS)[number]>;
const TRANSFERS_BY_ID = statement<TransferRow, { ids: string[] }>(
  sql`select ${columnsOf(chainTransfers, TRANSFER_COLUMNS)} from ${chainTransfers} where ${chainTransfers.id} = any(${param('ids')}::uuid[])`,
);
const TRANSFERS_OF_ORDERS = statement<TransferRow, { orderIds: string[] }>(
  sql`select ${columnsOf(chainTransfers, TRANSFER_COLUMNS)} from ${chainTransfers} where ${chainTransfers.orderId} = any(${param('orderIds')}::uuid[])`,
);

/** The `orders` columns settling reads. */
const ORDER_COLUMNS = [
  'id',
  'merchant_id',
  'mode',
  'status',
  'currency',
  'amount',
  'threshold',
  'received',
  'address',
  'tag',
  'expires_at',
  'check_risks',
  'invoice_id',
] as const satisfies readonly (keyof RowOf<typeof orders>)[];
type SettlingOrderRow = Pick<RowOf<typeof orders>, (typeof ORDER_COLUMNS)[number]>;
// A fixed order of locking (PostgreSQL locks the rows as the sort hands them up), so two steps
// touching the same orders cannot deadlock.
const LOCK_ORDERS = statement<SettlingOrderRow, { ids: string[] }>(
  sql`select ${columnsOf(orders, ORDER_COLUMNS)} from ${orders} where ${orders.id} = any(${param('ids')}::uuid[]) order by ${orders.id} for update`,
);

export interface StatusChange {
  orderId: string;
  from: OrderStatus;
  to: OrderStatus;
}

/**
 * Evaluates one order against its transfers and writes the outcome (the expiry sweeper's entry:
 * the same code as a step's, with one order). Answers the status change when there was one
 * (recorded in `order_events` in the same transaction, with the webhook it calls for in the outbox).
 */
export async function settleOrder(tx: Queryable, orderId: string, view: ChainView): Promise<StatusChange | null> {
  const [change] = await settle(tx, [orderId], [], view);
  return change ?? null;
}

/**
 * Settles what the transfers of one step touched: every order they belong to, and the personal
 * deposits of those without an order.
 */
export async function settleTransfers(
  tx: Queryable,
  transferIds: readonly string[],
  view: ChainView,
): Promise<StatusChange[]> {
  if (transferIds.length === 0) return [];
  const rows = await TRANSFERS_BY_ID.run(tx, { ids: [...transferIds] });
  const orderIds = new Set<string>();
  const withoutOrder: TransferRow[] = [];
  for (const row of rows) {
    if (row.order_id) orderIds.add(row.order_id);
    else withoutOrder.push(row);
  }
  return settle(tx, [...orderIds], withoutOrder, view);
}

/** One order as the evaluation left it. */
interface Settled {
  order: SettlingOrderRow;
  transfers: TransferRow[];
  evaluation: Evaluation;
}

/**
 * Locks and evaluates the orders, then writes everything they and the transfers without an order
 * call for, one statement per kind of row. Answers the status changes, in the orders' id order.
 */
async function settle(
  tx: Queryable,
  orderIds: readonly string[],
  withoutOrder: readonly TransferRow[],
  view: ChainView,
): Promise<StatusChange[]> {
  const settled: Settled[] = [];
  if (orderIds.length > 0) {
    const rows = await LOCK_ORDERS.run(tx, { ids: [...orderIds] });
    const transfers = rows.length > 0 ? await TRANSFERS_OF_ORDERS.run(tx, { orderIds: rows.map((o) => o.id) }) : [];
    const byOrder = new Map<string, TransferRow[]>();
    for (const transfer of transfers) {
      const list = byOrder.get(transfer.order_id!);
      if (list) list.push(transfer);
      else byOrder.set(transfer.order_id!, [transfer]);
    }
    for (const order of rows) {
      const own = byOrder.get(order.id) ?? [];
      settled.push({ order, transfers: own, evaluation: await evaluate(order, own, view) });
    }
  }
  const plan = planWrites(settled, withoutOrder, view);
  await write(tx, plan);
  // After the orders and payments are written: the events and webhooks carry them. Same transaction
  // as the status changes, so a change, its event and its webhooks commit together or not at all.
  await publishOrderEvents(tx, plan.finalChanges);
  const confirmedDeposits = plan.deposits.filter(({ write }) => write.status === 'PROCESSED');
  await publishDepositEvents(
    tx,
    confirmedDeposits.map(({ row }) => keyOf(row)),
  );
  // Mispayments settled by what this step confirmed (lib/mispayments), with their `order.resolved`
  // events, in the same transaction: a paid remainder settles its original (and cancels its refunds
  // still waiting for an address); a late payment the merchant's rule accepts settles its order.
  await resolvePaidRemainders(tx, plan.finalChanges, view.now);
  await acceptLatePayments(
    tx,
    confirmedDeposits.flatMap(({ row }) => (row.order_id ? [row.order_id] : [])),
  );
  // The payer's mail, in the same transaction for the same reason (lib/mail, docs/mail.md).
  await enqueueOrderMails(tx, plan.mails);
  // The invoices follow their orders in the same transaction (their webhooks too, when final).
  for (const invoiceChange of await followOrders(tx, plan.invoiceIds, view.now))
    log.info('invoice status changed', { ...invoiceChange });
  return plan.changes;
}

/** Runs the state machine on one order and its transfers as observed (screened when the order asks for it). */
async function evaluate(order: SettlingOrderRow, rows: readonly TransferRow[], view: ChainView): Promise<Evaluation> {
  const observed: ObservedTransfer[] = [];
  for (const row of rows) {
    observed.push({
      id: row.id,
      currency: row.currency,
      amount: BigInt(row.amount),
      sender: row.sender,
      firstSeenAt: row.first_seen_at,
      confirmations: confirmationsOf(row, view.tipHeight),
      dropped: row.dropped,
      risk: order.check_risks
        ? await view.screen.screen({ sender: row.sender, currency: row.currency, network: row.network })
        : undefined,
    });
  }
  const settled = new Map<string, SettledRole>();
  for (const row of rows) if (row.settled_role) settled.set(row.id, row.settled_role);
  return evaluateOrder(
    {
      status: order.status,
      currency: order.currency,
      amount: BigInt(order.amount),
      threshold: BigInt(order.threshold),
      expiresAt: order.expires_at,
      checkRisks: order.check_risks,
      settled,
    },
    observed,
    {
      now: view.now,
      requiredConfirmations: view.requiredConfirmations,
      scannedPastExpiry: view.tipTime.getTime() > order.expires_at.getTime(),
    },
  );
}

const PAYMENT_STATUS: Partial<Record<TransferRole, string>> = {
  counted: 'processed',
  detected: 'pending',
  reversed: 'reversed',
  rejected: 'rejected',
};

/** The roles of a payment the payer sent in time: confirming or counted. */
const PAYMENT_SEEN: ReadonlySet<TransferRole> = new Set(['counted', 'detected']);

/** A transfer's key, shared by its payment and its deposit. */
interface TransferKey {
  network: string;
  mode: string;
  tx_hash: string;
  output_index: number;
}

/** What one settling writes, gathered per kind of row. */
interface Plan {
  changes: StatusChange[];
  /** Orders whose status or `received` moved. */
  orderUpdates: { id: string; status: string; received: string; message: string | null; changed: boolean }[];
  events: { order_id: string; from_status: string; to_status: string; message: string | null }[];
  /** Transfers of orders made final by this settling, by the role they settled with. */
  counted: string[];
  rejected: string[];
  payments: PaymentWrite[];
  /** Transfers that are no payment: their payment (if they had one) goes, their deposit is written. */
  deposits: { row: TransferRow; write: IncomingWrite }[];
  /** Orders whose new status is final: their webhooks. */
  finalChanges: string[];
  /** The invoices of the settled orders: each follows every order it made. */
  invoiceIds: string[];
  /** The payer mail each settled order calls for (the outbox writes each kind once per order). */
  mails: { orderId: string; kind: PayerMailKind }[];
}

type PaymentWrite = TransferKey & {
  order_id: string;
  merchant_id: string;
  address_id: string;
  currency: string;
  address: string;
  tag: string | null;
  sender_address: string | null;
  amount: string;
  status: string;
  confirmations: number;
};

/** Decides every row to write from the evaluations (no database work). */
function planWrites(settled: readonly Settled[], withoutOrder: readonly TransferRow[], view: ChainView): Plan {
  const plan: Plan = {
    changes: [],
    orderUpdates: [],
    events: [],
    counted: [],
    rejected: [],
    payments: [],
    deposits: [],
    finalChanges: [],
    invoiceIds: [],
    mails: [],
  };
  const projectDeposit = (row: TransferRow) =>
    plan.deposits.push({
      row,
      write: incomingWrite({
        confirmations: confirmationsOf(row, view.tipHeight),
        requiredConfirmations: view.requiredConfirmations,
        dropped: row.dropped,
      }),
    });
  for (const { order, transfers, evaluation } of settled) {
    const changed = evaluation.status !== order.status;
    const received = evaluation.received.toString();
    if (changed) {
      plan.changes.push({ orderId: order.id, from: order.status, to: evaluation.status });
      plan.events.push({
        order_id: order.id,
        from_status: order.status,
        to_status: evaluation.status,
        message: evaluation.message,
      });
      if (FINAL_STATUSES.has(evaluation.status)) {
        plan.finalChanges.push(order.id);
        for (const [id, role] of evaluation.roles) {
          if (role === 'counted') plan.counted.push(id);
          else if (role === 'rejected') plan.rejected.push(id);
        }
      }
    }
    if (changed || received !== BigInt(order.received).toString()) {
      plan.orderUpdates.push({
        id: order.id,
        status: evaluation.status,
        received,
        message: evaluation.message,
        changed,
      });
    }
    for (const alert of evaluation.alerts)
      log.warn('payment reversed after the order was final', { orderId: order.id, alert });
    for (const row of transfers) {
      const paymentStatus = PAYMENT_STATUS[evaluation.roles.get(row.id) ?? 'orphan'];
      if (!paymentStatus) {
        projectDeposit(row);
        continue;
      }
      plan.payments.push({
        network: row.network,
        mode: row.mode,
        tx_hash: row.tx_hash,
        output_index: row.output_index,
        order_id: order.id,
        merchant_id: order.merchant_id,
        address_id: row.address_id,
        currency: row.currency,
        address: order.address,
        // The tag the transfer carried: a Solana order's reference changes after a partial payment (decision 096).
        tag: row.tag,
        sender_address: row.sender,
        amount: row.amount,
        status: paymentStatus,
        confirmations: confirmationsOf(row, view.tipHeight),
      });
    }
    if (order.invoice_id) plan.invoiceIds.push(order.invoice_id);
    const mail = payerMailOf({
      status: evaluation.status,
      received: evaluation.received,
      paymentSeen: transfers.some((row) => PAYMENT_SEEN.has(evaluation.roles.get(row.id) ?? 'orphan')),
    });
    if (mail) plan.mails.push({ orderId: order.id, kind: mail });
  }
  for (const row of withoutOrder) projectDeposit(row);
  return plan;
}

// --- The statements: each writes one kind of row for every order and transfer of the settling ----

const ORDER_UPDATES = unnest('u', {
  id: orders.id,
  status: orders.status,
  received: orders.received,
  message: orders.message,
  changed: 'boolean',
});
const u = ORDER_UPDATES.ref;
/** A status change writes the evaluation's message; a change of `received` alone leaves the message. */
const UPDATE_ORDERS = statement(sql`update ${orders}
    set ${bare(orders.status)} = ${u.status}, ${bare(orders.received)} = ${u.received},
        ${bare(orders.message)} = case when ${u.changed} then ${u.message} else ${orders.message} end, ${bare(orders.updatedAt)} = now()
   from ${ORDER_UPDATES.from} where ${orders.id} = ${u.id}`);

const EVENTS = unnest('e', {
  order_id: orderEvents.orderId,
  from_status: orderEvents.fromStatus,
  to_status: orderEvents.toStatus,
  message: orderEvents.message,
});
const INSERT_EVENTS = statement(
  sql`insert into ${orderEvents} (${EVENTS.names}) select ${EVENTS.names} from ${EVENTS.from}`,
);

const SETTLED_ROLES = statement<unknown, { counted: string[]; rejected: string[] }>(sql`update ${chainTransfers}
    set ${bare(chainTransfers.settledRole)} = case when ${chainTransfers.id} = any(${param('counted')}::uuid[]) then 'counted' else 'rejected' end
  where ${chainTransfers.id} = any(${param('counted')}::uuid[]) or ${chainTransfers.id} = any(${param('rejected')}::uuid[])`);

const KEYS = unnest('k', {
  network: chainTransfers.network,
  mode: chainTransfers.mode,
  tx_hash: chainTransfers.txHash,
  output_index: chainTransfers.outputIndex,
});
const k = KEYS.ref;
const DELETE_DEPOSITS = statement(sql`delete from ${deposits} using ${KEYS.from}
  where ${deposits.network} = ${k.network} and ${deposits.mode} = ${k.mode} and ${deposits.inTxHash} = ${k.tx_hash} and ${deposits.inOutputIndex} = ${k.output_index}`);
const DELETE_PAYMENTS = statement(sql`delete from ${payments} using ${KEYS.from}
  where ${payments.network} = ${k.network} and ${payments.mode} = ${k.mode} and ${payments.txHash} = ${k.tx_hash} and ${payments.outputIndex} = ${k.output_index}`);

const PAYMENTS = unnest('p', {
  order_id: payments.orderId,
  merchant_id: payments.merchantId,
  mode: payments.mode,
  address_id: payments.addressId,
  network: payments.network,
  currency: payments.currency,
  tx_hash: payments.txHash,
  output_index: payments.outputIndex,
  address: payments.address,
  tag: payments.tag,
  sender_address: payments.senderAddress,
  amount: payments.amount,
  status: payments.status,
  confirmations: payments.confirmations,
});
const UPSERT_PAYMENTS =
  statement(sql`insert into ${payments} (${PAYMENTS.names}) select ${PAYMENTS.names} from ${PAYMENTS.from}
  on conflict (${bare(payments.network)}, ${bare(payments.mode)}, ${bare(payments.txHash)}, ${bare(payments.outputIndex)})
  do update set ${bare(payments.status)} = excluded.${bare(payments.status)}, ${bare(payments.confirmations)} = excluded.${bare(payments.confirmations)}`);

const DEPOSIT_STATUSES = unnest('u', {
  network: deposits.network,
  mode: deposits.mode,
  tx_hash: 'text',
  output_index: 'integer',
  status: deposits.status,
  message: deposits.message,
  in_status: deposits.inStatus,
  confirmations: deposits.confirmations,
});
const ds = DEPOSIT_STATUSES.ref;
const UPDATE_DEPOSITS = statement(sql`update ${deposits}
    set ${bare(deposits.status)} = ${ds.status}, ${bare(deposits.message)} = ${ds.message}, ${bare(deposits.inStatus)} = ${ds.in_status},
        ${bare(deposits.confirmations)} = ${ds.confirmations}
   from ${DEPOSIT_STATUSES.from}
  where ${deposits.network} = ${ds.network} and ${deposits.mode} = ${ds.mode} and ${deposits.inTxHash} = ${ds.tx_hash} and ${deposits.inOutputIndex} = ${ds.output_index}`);

const NEW_DEPOSITS = unnest('d', {
  network: deposits.network,
  mode: deposits.mode,
  in_tx_hash: deposits.inTxHash,
  in_output_index: deposits.inOutputIndex,
  merchant_id: deposits.merchantId,
  kind: deposits.kind,
  order_id: deposits.orderId,
  stage: deposits.stage,
  status: deposits.status,
  message: deposits.message,
  currency: deposits.currency,
  amount: deposits.amount,
  address_id: deposits.addressId,
  address: deposits.address,
  tag: deposits.tag,
  in_status: deposits.inStatus,
  confirmations: deposits.confirmations,
});
// `onIncoming` opens a deposit at the observation's status, so on a conflict `excluded.status` is
// the status the observation decides for the deposit there is (lib/deposits: `IncomingWrite`).
const UPSERT_DEPOSITS =
  statement(sql`insert into ${deposits} (${NEW_DEPOSITS.names}) select ${NEW_DEPOSITS.names} from ${NEW_DEPOSITS.from}
  on conflict (${bare(deposits.network)}, ${bare(deposits.mode)}, ${bare(deposits.inTxHash)}, ${bare(deposits.inOutputIndex)})
  do update set ${bare(deposits.status)} = excluded.${bare(deposits.status)}, ${bare(deposits.message)} = excluded.${bare(deposits.message)},
    ${bare(deposits.inStatus)} = excluded.${bare(deposits.inStatus)}, ${bare(deposits.confirmations)} = excluded.${bare(deposits.confirmations)}`);

const ADDRESSES = statement<Pick<RowOf<typeof addresses>, 'id' | 'kind' | 'address' | 'tag'>, { ids: string[] }>(
  sql`select ${columnsOf(addresses, ['id', 'kind', 'address', 'tag'])} from ${addresses} where ${addresses.id} = any(${param('ids')}::uuid[])`,
);

const keyOf = (row: TransferRow): TransferKey => ({
  network: row.network,
  mode: row.mode,
  tx_hash: row.tx_hash,
  output_index: row.output_index,
});

/** Runs the plan's statements, skipping each kind with nothing to write. */
async function write(tx: Queryable, plan: Plan): Promise<void> {
  if (plan.orderUpdates.length > 0) await UPDATE_ORDERS.run(tx, ORDER_UPDATES.values(plan.orderUpdates));
  if (plan.events.length > 0) await INSERT_EVENTS.run(tx, EVENTS.values(plan.events));
  if (plan.counted.length + plan.rejected.length > 0)
    await SETTLED_ROLES.run(tx, { counted: plan.counted, rejected: plan.rejected });
  if (plan.payments.length > 0) {
    await DELETE_DEPOSITS.run(tx, KEYS.values(plan.payments));
    await UPSERT_PAYMENTS.run(tx, PAYMENTS.values(plan.payments));
  }
  const ofOrders = plan.deposits.filter(({ row }) => row.order_id);
  if (ofOrders.length > 0) await DELETE_PAYMENTS.run(tx, KEYS.values(ofOrders.map(({ row }) => keyOf(row))));
  const updates = plan.deposits.filter(({ write }) => !write.opens);
  if (updates.length > 0) {
    await UPDATE_DEPOSITS.run(
      tx,
      DEPOSIT_STATUSES.values(
        updates.map(({ row, write }) => ({ ...keyOf(row), ...write, in_status: write.inStatus })),
      ),
    );
  }
  const opening = plan.deposits.filter(({ write }) => write.opens);
  if (opening.length > 0) await UPSERT_DEPOSITS.run(tx, NEW_DEPOSITS.values(await newDeposits(tx, opening)));
}

/** The rows of the deposits an observation opens, with their addresses (read with one statement). */
async function newDeposits(tx: Queryable, opening: readonly { row: TransferRow; write: IncomingWrite }[]) {
  const ids = [...new Set(opening.map(({ row }) => row.address_id))];
  const found = await ADDRESSES.run(tx, { ids });
  const byId = new Map(found.map((a) => [a.id, a]));
  return opening.map(({ row, write }) => {
    const address = byId.get(row.address_id)!;
    return {
      network: row.network,
      mode: row.mode,
      in_tx_hash: row.tx_hash,
      in_output_index: row.output_index,
      merchant_id: row.merchant_id,
      kind: kindOf(row.order_id, address.kind),
      order_id: row.order_id,
      stage: write.opens!.stage,
      status: write.opens!.status,
      message: write.message,
      currency: row.currency,
      amount: row.amount,
      address_id: address.id,
      address: address.address,
      tag: address.tag,
      in_status: write.inStatus,
      confirmations: write.confirmations,
    };
  });
}
