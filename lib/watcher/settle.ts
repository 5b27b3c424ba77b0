import 'server-only';
/**
 * Applies the order state machine (lib/orders/lifecycle) to what the watcher observed, inside the
 * caller's transaction: the order row is locked first, so a payment and the expiry sweeper racing
 * on one order are evaluated one after the other and the order is decided once. The merchant-facing
 * rows (`payments`, `deposits`) are rewritten from the evaluation, so they never disagree with it;
 * a transfer that is no payment is written as the deposit state machine (lib/deposits) decides.
 */
import { confirmationsOf } from '../chains';
import type { addresses, chainTransfers, orders, Queryable, RowOf } from '../db';
import { incomingWrite, kindOf } from '../deposits';
import { followOrder } from '../invoices';
import { log } from '../log';
import { evaluateOrder, type ObservedTransfer, type SettledRole, type TransferRole } from '../orders';
import { FINAL_STATUSES, type OrderStatus } from '../protocol';
import type { RiskScreen } from '../risk';
import { enqueueOrderWebhook } from '../webhooks';

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
 * Evaluates one order against its transfers and writes the outcome. Answers the status change
 * when there was one (recorded in `order_events` in the same transaction, with the webhook it
 * calls for in the outbox).
 */
export async function settleOrder(tx: Queryable, orderId: string, view: ChainView): Promise<StatusChange | null> {
  const [order] = await tx.query<OrderRow>(`select ${ORDER_COLUMNS.join(', ')} from orders where id = $1 for update`, [orderId]);
  if (!order) return null;
  const rows = await tx.query<TransferRow>(`${SELECT_TRANSFERS} where order_id = $1`, [orderId]);
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
  const evaluation = evaluateOrder(
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

  let change: StatusChange | null = null;
  if (evaluation.status !== order.status) {
    change = { orderId, from: order.status, to: evaluation.status };
    await tx.query(
      `update orders set status = $2, received = $3, message = $4, updated_at = now() where id = $1`,
      [orderId, evaluation.status, evaluation.received.toString(), evaluation.message],
    );
    await tx.query('insert into order_events (order_id, from_status, to_status, message) values ($1, $2, $3, $4)', [
      orderId, order.status, evaluation.status, evaluation.message,
    ]);
    if (FINAL_STATUSES.has(evaluation.status)) {
      const ids = (role: TransferRole) => [...evaluation.roles].filter(([, r]) => r === role).map(([id]) => id);
      await tx.query(
        `update chain_transfers set settled_role = case when id = any($1::uuid[]) then 'counted' else 'rejected' end
          where id = any($1::uuid[]) or id = any($2::uuid[])`,
        [ids('counted'), ids('rejected')],
      );
    }
  } else if (evaluation.received.toString() !== BigInt(order.received).toString()) {
    await tx.query('update orders set received = $2, updated_at = now() where id = $1', [orderId, evaluation.received.toString()]);
  }
  for (const alert of evaluation.alerts) log.warn('payment reversed after the order was final', { orderId, alert });
  for (const row of rows) await project(tx, row, order, evaluation.roles.get(row.id) ?? 'orphan', view);
  // After the payments are written: the webhook's body carries them. Same transaction as the
  // status change, so the change and its webhook commit together or not at all.
  if (change && FINAL_STATUSES.has(change.to)) await enqueueOrderWebhook(tx, orderId);
  if (order.invoice_id) {
    // The invoice follows its order in the same transaction (its webhook too, when final).
    const paymentSeen = [...evaluation.roles.values()].some((role) => role === 'counted' || role === 'detected' || role === 'rejected');
    const invoiceChange = await followOrder(tx, { id: orderId, invoice_id: order.invoice_id, status: evaluation.status }, paymentSeen, view.now);
    if (invoiceChange) log.info('invoice status changed', { ...invoiceChange, orderId });
  }
  return change;
}

const PAYMENT_STATUS: Partial<Record<TransferRole, string>> = {
  counted: 'processed',
  detected: 'pending',
  reversed: 'reversed',
  rejected: 'rejected',
};

/** Writes the transfer where the merchant sees it: a payment of the order, or an orphan deposit. */
async function project(tx: Queryable, row: TransferRow, order: OrderRow, role: TransferRole, view: ChainView): Promise<void> {
  const confirmations = confirmationsOf(row, view.tipHeight);
  const paymentStatus = PAYMENT_STATUS[role];
  if (paymentStatus) {
    await tx.query('delete from deposits where network = $1 and mode = $2 and in_tx_hash = $3 and in_output_index = $4', [
      row.network, row.mode, row.tx_hash, row.output_index,
    ]);
    await tx.query(
      `insert into payments (order_id, merchant_id, mode, address_id, network, currency, tx_hash, output_index, address, tag,
                             sender_address, amount, status, confirmations)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       on conflict (network, mode, tx_hash, output_index)
       do update set status = excluded.status, confirmations = excluded.confirmations`,
      [
        order.id, order.merchant_id, order.mode, row.address_id, row.network, row.currency, row.tx_hash, row.output_index,
        order.address, order.tag, row.sender, row.amount, paymentStatus, confirmations,
      ],
    );
    return;
  }
  await tx.query('delete from payments where network = $1 and mode = $2 and tx_hash = $3 and output_index = $4', [
    row.network, row.mode, row.tx_hash, row.output_index,
  ]);
  await projectDeposit(tx, row, view);
}

/**
 * Writes the deposit of a transfer that is no payment (lib/deposits: an orphan of its order, or a
 * personal deposit) as the deposit state machine decides for the observation: its status, and the
 * deposit itself where there is none yet and the observation opens one. The stage is left alone.
 */
async function projectDeposit(tx: Queryable, row: TransferRow, view: ChainView): Promise<void> {
  const write = incomingWrite({
    confirmations: confirmationsOf(row, view.tipHeight),
    requiredConfirmations: view.requiredConfirmations,
    dropped: row.dropped,
  });
  const key = [row.network, row.mode, row.tx_hash, row.output_index];
  if (!write.opens) {
    await tx.query(
      `update deposits set status = $5, message = $6, in_status = $7, confirmations = $8
        where network = $1 and mode = $2 and in_tx_hash = $3 and in_output_index = $4`,
      [...key, write.status, write.message, write.inStatus, write.confirmations],
    );
    return;
  }
  const [address] = await tx.query<Pick<RowOf<typeof addresses>, 'kind'>>('select kind from addresses where id = $1', [row.address_id]);
  await tx.query(
    `insert into deposits (network, mode, in_tx_hash, in_output_index, merchant_id, kind, order_id, stage, status, message, currency, amount,
                           address_id, address, tag, in_status, confirmations)
     select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, a.id, a.address, a.tag, $14, $15 from addresses a where a.id = $13
     on conflict (network, mode, in_tx_hash, in_output_index)
     do update set status = $16, message = excluded.message, in_status = excluded.in_status, confirmations = excluded.confirmations`,
    [
      ...key, row.merchant_id, kindOf(row.order_id, address!.kind), row.order_id, write.opens.stage, write.opens.status, write.message, row.currency,
      row.amount, row.address_id, write.inStatus, write.confirmations, write.status,
    ],
  );
}

/**
 * Settles what the transfers of one step touched: every order they belong to, and the personal
 * deposits of those without an order.
 */
export async function settleTransfers(tx: Queryable, transferIds: readonly string[], view: ChainView): Promise<StatusChange[]> {
  if (transferIds.length === 0) return [];
  const rows = await tx.query<TransferRow>(`${SELECT_TRANSFERS} where id = any($1::uuid[])`, [transferIds]);
  const orderIds = new Set<string>();
  for (const row of rows) {
    if (row.order_id) orderIds.add(row.order_id);
    else await projectDeposit(tx, row, view);
  }
  const changes: StatusChange[] = [];
  // A fixed order of locking, so two steps touching the same orders cannot deadlock.
  for (const orderId of [...orderIds].sort()) {
    const change = await settleOrder(tx, orderId, view);
    if (change) changes.push(change);
  }
  return changes;
}
