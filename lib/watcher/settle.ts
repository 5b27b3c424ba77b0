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
import { unnestRows, type addresses, type chainTransfers, type orders, type Queryable, type RowOf } from '../db';
import { incomingWrite, kindOf, type IncomingWrite } from '../deposits';
import { followOrders, type FollowedOrder } from '../invoices';
import { log } from '../log';
import { evaluateOrder, type Evaluation, type ObservedTransfer, type SettledRole, type TransferRole } from '../orders';
import { FINAL_STATUSES, type OrderStatus } from '../protocol';
import type { RiskScreen } from '../risk';
import { enqueueOrderWebhooks } from '../webhooks';

/** What the watcher knows of its chain when it evaluates. */
export interface ChainView {
  now: Date;
  /** Height of the chain tip the watcher has scanned to. */
  tipHeight: number;
  /** Block time of that tip: orders that expired before it are past their deadline on-chain too. */
  tipTime: Date;
  requiredConfirmations: number;
  screen: RiskScreen;
}

/** The `chain_transfers` columns settling reads (all but `created_at`). */
const TRANSFER_COLUMNS = [
  'id', 'network', 'mode', 'tx_hash', 'output_index', 'address_id', 'order_id', 'merchant_id', 'currency', 'amount', 'sender',
  'block_height', 'first_seen_at', 'dropped', 'settled_role',
] as const satisfies readonly (keyof RowOf<typeof chainTransfers>)[];
type TransferRow = Pick<RowOf<typeof chainTransfers>, (typeof TRANSFER_COLUMNS)[number]>;
const SELECT_TRANSFERS = `select ${TRANSFER_COLUMNS.join(', ')} from chain_transfers`;

/** The `orders` columns settling reads. */
const ORDER_COLUMNS = [
  'id', 'merchant_id', 'mode', 'status', 'currency', 'amount', 'threshold', 'received', 'address', 'tag', 'expires_at', 'check_risks', 'invoice_id',
] as const satisfies readonly (keyof RowOf<typeof orders>)[];
type OrderRow = Pick<RowOf<typeof orders>, (typeof ORDER_COLUMNS)[number]>;

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
export async function settleTransfers(tx: Queryable, transferIds: readonly string[], view: ChainView): Promise<StatusChange[]> {
  if (transferIds.length === 0) return [];
  const rows = await tx.query<TransferRow>(`${SELECT_TRANSFERS} where id = any($1::uuid[])`, [transferIds]);
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
  order: OrderRow;
  transfers: TransferRow[];
  evaluation: Evaluation;
}

/**
 * Locks and evaluates the orders, then writes everything they and the transfers without an order
 * call for, one statement per kind of row. Answers the status changes, in the orders' id order.
 */
async function settle(tx: Queryable, orderIds: readonly string[], withoutOrder: readonly TransferRow[], view: ChainView): Promise<StatusChange[]> {
  const settled: Settled[] = [];
  if (orderIds.length > 0) {
    // A fixed order of locking (PostgreSQL locks the rows as the sort hands them up), so two steps
    // touching the same orders cannot deadlock.
    const rows = await tx.query<OrderRow>(`select ${ORDER_COLUMNS.join(', ')} from orders where id = any($1::uuid[]) order by id for update`, [orderIds]);
    const transfers = rows.length > 0 ? await tx.query<TransferRow>(`${SELECT_TRANSFERS} where order_id = any($1::uuid[])`, [rows.map((o) => o.id)]) : [];
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
  // After the orders and payments are written: the webhook's body carries them. Same transaction
  // as the status changes, so a change and its webhook commit together or not at all.
  await enqueueOrderWebhooks(tx, plan.finalChanges);
  // The invoices follow their orders in the same transaction (their webhooks too, when final).
  for (const invoiceChange of await followOrders(tx, plan.followed, view.now)) log.info('invoice status changed', { ...invoiceChange });
  return plan.changes;
}

/** Runs the state machine on one order and its transfers as observed (screened when the order asks for it). */
async function evaluate(order: OrderRow, rows: readonly TransferRow[], view: ChainView): Promise<Evaluation> {
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
      risk: order.check_risks ? await view.screen.screen({ sender: row.sender, currency: row.currency, network: row.network }) : undefined,
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
    { now: view.now, requiredConfirmations: view.requiredConfirmations, scannedPastExpiry: view.tipTime.getTime() > order.expires_at.getTime() },
  );
}

const PAYMENT_STATUS: Partial<Record<TransferRole, string>> = {
  counted: 'processed',
  detected: 'pending',
  reversed: 'reversed',
  rejected: 'rejected',
};

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
  followed: FollowedOrder[];
}

type PaymentWrite = TransferKey & {
  order_id: string; merchant_id: string; address_id: string; currency: string; address: string; tag: string | null;
  sender_address: string | null; amount: string; status: string; confirmations: number;
};

/** Decides every row to write from the evaluations (no database work). */
function planWrites(settled: readonly Settled[], withoutOrder: readonly TransferRow[], view: ChainView): Plan {
  const plan: Plan = { changes: [], orderUpdates: [], events: [], counted: [], rejected: [], payments: [], deposits: [], finalChanges: [], followed: [] };
  const projectDeposit = (row: TransferRow) =>
    plan.deposits.push({
      row,
      write: incomingWrite({ confirmations: confirmationsOf(row, view.tipHeight), requiredConfirmations: view.requiredConfirmations, dropped: row.dropped }),
    });
  for (const { order, transfers, evaluation } of settled) {
    const changed = evaluation.status !== order.status;
    const received = evaluation.received.toString();
    if (changed) {
      plan.changes.push({ orderId: order.id, from: order.status, to: evaluation.status });
      plan.events.push({ order_id: order.id, from_status: order.status, to_status: evaluation.status, message: evaluation.message });
      if (FINAL_STATUSES.has(evaluation.status)) {
        plan.finalChanges.push(order.id);
        for (const [id, role] of evaluation.roles) {
          if (role === 'counted') plan.counted.push(id);
          else if (role === 'rejected') plan.rejected.push(id);
        }
      }
    }
    if (changed || received !== BigInt(order.received).toString()) {
      plan.orderUpdates.push({ id: order.id, status: evaluation.status, received, message: evaluation.message, changed });
    }
    for (const alert of evaluation.alerts) log.warn('payment reversed after the order was final', { orderId: order.id, alert });
    for (const row of transfers) {
      const paymentStatus = PAYMENT_STATUS[evaluation.roles.get(row.id) ?? 'orphan'];
      if (!paymentStatus) {
        projectDeposit(row);
        continue;
      }
      plan.payments.push({
        network: row.network, mode: row.mode, tx_hash: row.tx_hash, output_index: row.output_index,
        order_id: order.id, merchant_id: order.merchant_id, address_id: row.address_id, currency: row.currency, address: order.address,
        tag: order.tag, sender_address: row.sender, amount: row.amount, status: paymentStatus, confirmations: confirmationsOf(row, view.tipHeight),
      });
    }
    if (order.invoice_id) {
      const paymentSeen = [...evaluation.roles.values()].some((role) => role === 'counted' || role === 'detected' || role === 'rejected');
      plan.followed.push({ order: { id: order.id, invoice_id: order.invoice_id, status: evaluation.status }, paymentSeen });
    }
  }
  for (const row of withoutOrder) projectDeposit(row);
  return plan;
}

// --- The statements: each writes one kind of row for every order and transfer of the settling ----

const ORDER_UPDATES = unnestRows('u', { id: 'uuid', status: 'text', received: 'numeric', message: 'text', changed: 'boolean' });
/** A status change writes the evaluation's message; a change of `received` alone leaves the message. */
const UPDATE_ORDERS = `update orders o
    set status = u.status, received = u.received, message = case when u.changed then u.message else o.message end, updated_at = now()
   from ${ORDER_UPDATES.from} where o.id = u.id`;

const EVENTS = unnestRows('e', { order_id: 'uuid', from_status: 'text', to_status: 'text', message: 'text' });
const INSERT_EVENTS = `insert into order_events (${EVENTS.columns}) select ${EVENTS.columns} from ${EVENTS.from}`;

const SETTLED_ROLES = `update chain_transfers set settled_role = case when id = any($1::uuid[]) then 'counted' else 'rejected' end
  where id = any($1::uuid[]) or id = any($2::uuid[])`;

const KEYS = unnestRows('k', { network: 'text', mode: 'text', tx_hash: 'text', output_index: 'int' });
const DELETE_DEPOSITS = `delete from deposits d using ${KEYS.from}
  where d.network = k.network and d.mode = k.mode and d.in_tx_hash = k.tx_hash and d.in_output_index = k.output_index`;
const DELETE_PAYMENTS = `delete from payments p using ${KEYS.from}
  where p.network = k.network and p.mode = k.mode and p.tx_hash = k.tx_hash and p.output_index = k.output_index`;

const PAYMENTS = unnestRows('p', {
  order_id: 'uuid', merchant_id: 'uuid', mode: 'text', address_id: 'uuid', network: 'text', currency: 'text', tx_hash: 'text', output_index: 'int',
  address: 'text', tag: 'text', sender_address: 'text', amount: 'numeric', status: 'text', confirmations: 'int',
});
const UPSERT_PAYMENTS = `insert into payments (${PAYMENTS.columns}) select ${PAYMENTS.columns} from ${PAYMENTS.from}
  on conflict (network, mode, tx_hash, output_index) do update set status = excluded.status, confirmations = excluded.confirmations`;

const DEPOSIT_STATUSES = unnestRows('u', {
  network: 'text', mode: 'text', tx_hash: 'text', output_index: 'int', status: 'text', message: 'text', in_status: 'text', confirmations: 'int',
});
const UPDATE_DEPOSITS = `update deposits d set status = u.status, message = u.message, in_status = u.in_status, confirmations = u.confirmations
   from ${DEPOSIT_STATUSES.from}
  where d.network = u.network and d.mode = u.mode and d.in_tx_hash = u.tx_hash and d.in_output_index = u.output_index`;

const NEW_DEPOSITS = unnestRows('d', {
  network: 'text', mode: 'text', in_tx_hash: 'text', in_output_index: 'int', merchant_id: 'uuid', kind: 'text', order_id: 'uuid', stage: 'text',
  status: 'text', message: 'text', currency: 'text', amount: 'numeric', address_id: 'uuid', address: 'text', tag: 'text', in_status: 'text',
  confirmations: 'int',
});
// `onIncoming` opens a deposit at the observation's status, so on a conflict `excluded.status` is
// the status the observation decides for the deposit there is (lib/deposits: `IncomingWrite`).
const UPSERT_DEPOSITS = `insert into deposits (${NEW_DEPOSITS.columns}) select ${NEW_DEPOSITS.columns} from ${NEW_DEPOSITS.from}
  on conflict (network, mode, in_tx_hash, in_output_index)
  do update set status = excluded.status, message = excluded.message, in_status = excluded.in_status, confirmations = excluded.confirmations`;

const keyOf = (row: TransferRow): TransferKey => ({ network: row.network, mode: row.mode, tx_hash: row.tx_hash, output_index: row.output_index });

/** Runs the plan's statements, skipping each kind with nothing to write. */
async function write(tx: Queryable, plan: Plan): Promise<void> {
  if (plan.orderUpdates.length > 0) await tx.query(UPDATE_ORDERS, ORDER_UPDATES.values(plan.orderUpdates));
  if (plan.events.length > 0) await tx.query(INSERT_EVENTS, EVENTS.values(plan.events));
  if (plan.counted.length + plan.rejected.length > 0) await tx.query(SETTLED_ROLES, [plan.counted, plan.rejected]);
  if (plan.payments.length > 0) {
    await tx.query(DELETE_DEPOSITS, KEYS.values(plan.payments));
    await tx.query(UPSERT_PAYMENTS, PAYMENTS.values(plan.payments));
  }
  const ofOrders = plan.deposits.filter(({ row }) => row.order_id);
  if (ofOrders.length > 0) await tx.query(DELETE_PAYMENTS, KEYS.values(ofOrders.map(({ row }) => keyOf(row))));
  const updates = plan.deposits.filter(({ write }) => !write.opens);
  if (updates.length > 0) {
    await tx.query(UPDATE_DEPOSITS, DEPOSIT_STATUSES.values(updates.map(({ row, write }) => ({ ...keyOf(row), ...write, in_status: write.inStatus }))));
  }
  const opening = plan.deposits.filter(({ write }) => write.opens);
  if (opening.length > 0) await tx.query(UPSERT_DEPOSITS, NEW_DEPOSITS.values(await newDeposits(tx, opening)));
}

/** The rows of the deposits an observation opens, with their addresses (read with one statement). */
async function newDeposits(tx: Queryable, opening: readonly { row: TransferRow; write: IncomingWrite }[]) {
  const ids = [...new Set(opening.map(({ row }) => row.address_id))];
  const found = await tx.query<Pick<RowOf<typeof addresses>, 'id' | 'kind' | 'address' | 'tag'>>(
    'select id, kind, address, tag from addresses where id = any($1::uuid[])',
    [ids],
  );
  const byId = new Map(found.map((a) => [a.id, a]));
  return opening.map(({ row, write }) => {
    const address = byId.get(row.address_id)!;
    return {
      network: row.network, mode: row.mode, in_tx_hash: row.tx_hash, in_output_index: row.output_index, merchant_id: row.merchant_id,
      kind: kindOf(row.order_id, address.kind), order_id: row.order_id, stage: write.opens!.stage, status: write.opens!.status, message: write.message,
      currency: row.currency, amount: row.amount, address_id: address.id, address: address.address, tag: address.tag, in_status: write.inStatus,
      confirmations: write.confirmations,
    };
  });
}
