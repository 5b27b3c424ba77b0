import 'server-only';
/**
 * One watcher step for one (network, mode): follow the chain from the persisted cursor, match the
 * new blocks' transfers against the deposit addresses, record them, and settle the orders they
 * touch. Each step is one transaction that ends by moving the cursor: a crash anywhere rolls the
 * whole step back and the next worker does it again, and the unique key per chain transfer makes
 * doing it again harmless. The cursor row is locked for the step, so two workers never scan the
 * same network at once (the second skips it).
 *
 * Cost per block does not grow with the number of open orders: transfers are matched through the
 * unique index on (network, mode, address, tag) with one query per batch of blocks, and only the
 * orders those transfers belong to (plus those still waiting for confirmations) are evaluated.
 */
import type { BlockRef, ChainAdapter, ChainSpend, ChainTransfer } from '../chains/adapter';
import type { Database, Queryable } from '../db';
import type { Mode } from '../catalog/enabled';
import { confirmationsOf, projectDeposit, settleOrder, type ChainView, type StatusChange, type TransferRow } from './settle';
import type { RiskScreen } from '../risk';

export interface WatchOptions {
  /** Most blocks one step scans (one transaction). */
  batchBlocks: number;
  /** Where a watcher without a cursor starts: 'genesis' (the sandbox) or 'tip' (a live chain). */
  startAt: 'genesis' | 'tip';
  screen: RiskScreen;
  now?: () => Date;
  /**
   * The chain's block time counts as the time when it is ahead of the wall clock. Set for the
   * sandbox, whose ledger is the test world's clock: a block dated ahead (`npm run sandbox -- mine
   * NETWORK --at TIME`) lets test orders expire without waiting out their lifetime. Never for live
   * chains, where a block may be dated up to two hours ahead of the real time.
   */
  chainClock?: boolean;
}

/** The time orders are judged at: the wall clock, or the chain's when it runs ahead (chainClock). */
export function judgedAt(now: Date, blockTime: Date, chainClock: boolean | undefined): Date {
  return chainClock && blockTime.getTime() > now.getTime() ? blockTime : now;
}

export interface StepResult {
  /** False when another worker holds this network's cursor. */
  ran: boolean;
  scannedBlocks: number;
  cursor: number;
  matchedTransfers: number;
  changes: StatusChange[];
  reorgFrom?: number;
}

interface Cursor {
  height: number;
  hash: string;
  blockTime: Date;
}

/** Blocks whose hashes are kept to find a fork point; deeper reorganisations need a rescan by hand. */
const KEPT_BLOCKS = 1000;

export async function watchStep(db: Database, adapter: ChainAdapter, mode: Mode, options: WatchOptions): Promise<StepResult> {
  const network = adapter.network.name;
  const idle: StepResult = { ran: false, scannedBlocks: 0, cursor: -1, matchedTransfers: 0, changes: [] };
  // Everything is read from the chain before the transaction opens: a database transaction never
  // waits on a node (and the sandbox ledger, which lives in the same database, never waits on
  // itself). The mempool is read before the tip: a transfer that leaves it is then in a block at
  // or below the tip we scan to, so it is never in neither.
  const mempool = await adapter.mempool();
  const head = await adapter.head();
  const seen = await readCursor(db, adapter, mode, options.startAt, head);
  let base = seen;
  let reorgFrom: number | undefined;
  const onChain = await adapter.block(seen.height);
  if (!onChain || onChain.hash !== seen.hash) {
    base = await findFork(db, adapter, mode, seen.height);
    reorgFrom = base.height + 1;
  }
  const to = Math.min(head.height, base.height + options.batchBlocks);
  const { blocks, transfers, spends = [] } = to > base.height ? await adapter.scan(base.height + 1, to) : { blocks: [], transfers: [] };
  // The first new block must build on the base: if the chain changed between reading the base and
  // scanning, this step would skip the fork. The next pass sees the change and finds the fork.
  if (blocks[0] && blocks[0].parentHash !== base.hash) return idle;

  return db.transaction(async (tx) => {
    // Another worker that moved the cursor since we read it has done this step already.
    if (!(await lockCursor(tx, network, mode, seen))) return idle;
    const cursor = { ...base };
    const result: StepResult = { ran: true, scannedBlocks: blocks.length, cursor: cursor.height, matchedTransfers: 0, changes: [], reorgFrom };
    if (reorgFrom !== undefined) {
      // Transfers of the replaced blocks lose their block; the rescan below puts back those the new
      // chain still has, and the ones it does not have are dropped once we are at the tip.
      await tx.query('update chain_transfers set block_height = null where network = $1 and mode = $2 and block_height > $3', [
        network, mode, base.height,
      ]);
      await tx.query('delete from chain_blocks where network = $1 and mode = $2 and height > $3', [network, mode, base.height]);
    }
    const touched = new Set<string>();
    result.matchedTransfers += await record(tx, network, mode, transfers, touched);
    await recordOutgoing(tx, adapter, mode, transfers);
    await recordSpends(tx, network, mode, spends);
    const last = blocks[blocks.length - 1];
    if (last) {
      await tx.query(
        `insert into chain_blocks (network, mode, height, hash) select $1, $2, h, x from unnest($3::bigint[], $4::text[]) as b(h, x)
         on conflict (network, mode, height) do update set hash = excluded.hash`,
        [network, mode, blocks.map((b) => b.height), blocks.map((b) => b.hash)],
      );
      await tx.query('delete from chain_blocks where network = $1 and mode = $2 and height < $3', [network, mode, last.height - KEPT_BLOCKS]);
      Object.assign(cursor, { height: last.height, hash: last.hash, blockTime: last.time });
    }
    if (last || reorgFrom !== undefined) {
      await tx.query('update chain_cursors set height = $3, hash = $4, block_time = $5, updated_at = now() where network = $1 and mode = $2', [
        network, mode, cursor.height, cursor.hash, cursor.blockTime,
      ]);
    }
    result.cursor = cursor.height;
    result.matchedTransfers += await record(tx, network, mode, mempool, touched);
    if (cursor.height >= head.height) await dropVanished(tx, network, mode, mempool, touched);

    // Transfers that were still short of their confirmations before this step may have them now.
    const unsettled = await tx.query<{ id: string }>(
      `select id from chain_transfers where network = $1 and mode = $2 and dropped = false
          and (block_height is null or block_height > $3)`,
      [network, mode, Math.min(seen.height, base.height) - adapter.requiredConfirmations],
    );
    for (const row of unsettled) touched.add(row.id);

    const view: ChainView = {
      now: judgedAt(options.now?.() ?? new Date(), cursor.blockTime, options.chainClock),
      tipHeight: cursor.height,
      tipTime: cursor.blockTime,
      requiredConfirmations: adapter.requiredConfirmations,
      screen: options.screen,
    };
    result.changes = await settleTouched(tx, [...touched], view);
    return result;
  });
}

/** The cursor of (network, mode), created where the watcher starts when there is none yet. */
async function readCursor(db: Queryable, adapter: ChainAdapter, mode: Mode, startAt: WatchOptions['startAt'], head: BlockRef): Promise<Cursor> {
  const network = adapter.network.name;
  const select = () =>
    db.query<{ height: string; hash: string; block_time: Date }>('select height, hash, block_time from chain_cursors where network = $1 and mode = $2', [
      network, mode,
    ]);
  let [row] = await select();
  if (!row) {
    const start = startAt === 'tip' ? head : await adapter.block(0);
    if (!start) throw new Error(`${network}: the chain has no block 0`);
    await db.query('insert into chain_cursors (network, mode, height, hash, block_time) values ($1, $2, $3, $4, $5) on conflict do nothing', [
      network, mode, start.height, start.hash, start.time,
    ]);
    [row] = await select();
  }
  return { height: Number(row!.height), hash: row!.hash, blockTime: row!.block_time };
}

/**
 * Locks the cursor row for this step, if it is still where we read it. False when another worker
 * holds it (SKIP LOCKED: it is scanning this network right now) or has moved it meanwhile.
 */
async function lockCursor(tx: Queryable, network: string, mode: Mode, seen: Cursor): Promise<boolean> {
  const [row] = await tx.query<{ height: string; hash: string }>(
    'select height, hash from chain_cursors where network = $1 and mode = $2 for update skip locked',
    [network, mode],
  );
  return !!row && Number(row.height) === seen.height && row.hash === seen.hash;
}

/** The highest block we scanned that the chain still has, from the kept hashes. */
async function findFork(db: Queryable, adapter: ChainAdapter, mode: Mode, from: number): Promise<Cursor> {
  const kept = await db.query<{ height: string; hash: string }>(
    'select height, hash from chain_blocks where network = $1 and mode = $2 and height <= $3 order by height desc',
    [adapter.network.name, mode, from],
  );
  for (const block of kept) {
    const onChain = await adapter.block(Number(block.height));
    if (onChain && onChain.hash === block.hash) return { height: onChain.height, hash: onChain.hash, blockTime: onChain.time };
  }
  const genesis = await adapter.block(0);
  if (!genesis) throw new Error(`${adapter.network.name}: reorganisation deeper than the kept blocks and no block 0`);
  return { height: 0, hash: genesis.hash, blockTime: genesis.time };
}

/**
 * Records the transfers that reach one of our deposit addresses (one query to match them all),
 * linking each to its order on first sight. Answers how many matched; adds their ids to `touched`.
 */
async function record(tx: Queryable, network: string, mode: Mode, transfers: readonly ChainTransfer[], touched: Set<string>): Promise<number> {
  if (transfers.length === 0) return 0;
  const rows = await tx.query<{ id: string }>(
    `with incoming as (
       select * from unnest($3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::numeric[], $10::bigint[], $11::timestamptz[])
         as t(tx_hash, output_index, sender, address, tag, currency, amount, block_height, seen_at)
     ), matched as (
       select i.*, a.id as address_id, a.kind, a.merchant_id as address_merchant,
              case when a.kind = 'PERSONAL' then
                (select o.id from orders o where o.address_id = a.id and o.currency = i.currency and o.status = 'pending'
                    and o.created_at <= i.seen_at order by o.created_at desc limit 1)
              else (select o.id from orders o where o.address_id = a.id limit 1) end as order_id
         from incoming i
         join addresses a on a.network = $1 and a.mode = $2 and a.address = i.address and coalesce(a.tag, '') = coalesce(i.tag, '')
     )
     insert into chain_transfers (network, mode, tx_hash, output_index, address_id, order_id, merchant_id, currency, amount, sender,
                                  block_height, first_seen_at)
     select $1, $2, m.tx_hash, m.output_index, m.address_id, m.order_id, coalesce(o.merchant_id, m.address_merchant), m.currency, m.amount,
            m.sender, m.block_height, m.seen_at
       from matched m left join orders o on o.id = m.order_id
      where coalesce(o.merchant_id, m.address_merchant) is not null
     on conflict (network, mode, tx_hash, output_index) do update
       set block_height = coalesce(excluded.block_height, chain_transfers.block_height),
           first_seen_at = least(chain_transfers.first_seen_at, excluded.first_seen_at),
           dropped = false
     returning id`,
    [
      network, mode,
      transfers.map((t) => t.txHash), transfers.map((t) => t.outputIndex), transfers.map((t) => t.from), transfers.map((t) => t.to),
      transfers.map((t) => t.tag), transfers.map((t) => t.currency), transfers.map((t) => t.amount.toString()),
      transfers.map((t) => t.blockHeight), transfers.map((t) => t.seenAt),
    ],
  );
  for (const row of rows) touched.add(row.id);
  return rows.length;
}

/**
 * Once the watcher is at the tip: a transfer that is in no scanned block and no longer in the
 * mempool was dropped (replaced, expired from the mempool, or lost in a reorganisation).
 */
async function dropVanished(tx: Queryable, network: string, mode: Mode, mempool: readonly ChainTransfer[], touched: Set<string>): Promise<void> {
  const rows = await tx.query<{ id: string }>(
    `update chain_transfers c set dropped = true
      where network = $1 and mode = $2 and block_height is null and dropped = false
        and not exists (select 1 from unnest($3::text[], $4::int[]) as m(tx_hash, output_index)
                         where m.tx_hash = c.tx_hash and m.output_index = c.output_index)
      returning id`,
    [network, mode, mempool.map((t) => t.txHash), mempool.map((t) => t.outputIndex)],
  );
  for (const row of rows) touched.add(row.id);
}

/** An outgoing transfer from a deposit address is the withdrawal of that address's settled deposits. */
async function recordOutgoing(tx: Queryable, adapter: ChainAdapter, mode: Mode, transfers: readonly ChainTransfer[]): Promise<void> {
  // A tag network's one shared address sends for everyone: its outgoing transfers belong to no deposit.
  const outgoing = adapter.network.usesTags ? [] : transfers.filter((t) => t.from !== null);
  if (outgoing.length === 0) return;
  await tx.query(
    `update deposits d set stage = 'WITHDRAWAL', out_address = o.to_address, out_tx_hash = o.tx_hash, out_amount = o.amount,
            out_status = 'processed', out_created_at = o.seen_at
       from unnest($3::text[], $4::text[], $5::text[], $6::numeric[], $7::timestamptz[]) as o(sender, to_address, tx_hash, amount, seen_at),
            addresses a
      where a.network = $1 and a.mode = $2 and a.address = o.sender and d.address_id = a.id
        and d.stage = 'DEPOSIT' and d.status = 'PROCESSED'`,
    [
      adapter.network.name, mode, outgoing.map((t) => t.from), outgoing.map((t) => t.to), outgoing.map((t) => t.txHash),
      outgoing.map((t) => t.amount.toString()), outgoing.map((t) => t.seenAt),
    ],
  );
}

/**
 * UTXO chains: an input spending the output of a settled deposit is that deposit's withdrawal
 * (inputs do not always name their address; the outpoint is exact). Matched on the deposits'
 * unique (network, mode, tx, output) key, so the cost follows the block's inputs, not the deposits.
 */
async function recordSpends(tx: Queryable, network: string, mode: Mode, spends: readonly ChainSpend[]): Promise<void> {
  if (spends.length === 0) return;
  await tx.query(
    `update deposits d set stage = 'WITHDRAWAL', out_address = s.to_address, out_tx_hash = s.tx_hash, out_amount = d.amount,
            out_status = 'processed', out_created_at = s.seen_at
       from unnest($3::text[], $4::int[], $5::text[], $6::text[], $7::timestamptz[]) as s(spent_tx, spent_index, tx_hash, to_address, seen_at)
      where d.network = $1 and d.mode = $2 and d.in_tx_hash = s.spent_tx and d.in_output_index = s.spent_index
        and d.stage = 'DEPOSIT' and d.status = 'PROCESSED'`,
    [network, mode, spends.map((s) => s.spentTxHash), spends.map((s) => s.spentOutputIndex), spends.map((s) => s.txHash), spends.map((s) => s.to), spends.map((s) => s.seenAt)],
  );
}

/** Settles every order the touched transfers belong to; transfers without an order are personal deposits. */
async function settleTouched(tx: Queryable, transferIds: string[], view: ChainView): Promise<StatusChange[]> {
  if (transferIds.length === 0) return [];
  const rows = await tx.query<TransferRow>('select * from chain_transfers where id = any($1::uuid[])', [transferIds]);
  const orders = new Set<string>();
  for (const row of rows) {
    if (row.order_id) orders.add(row.order_id);
    else await projectDeposit(tx, row, 'PERSONAL', confirmationsOf(row, view.tipHeight), view.requiredConfirmations);
  }
  const changes: StatusChange[] = [];
  // A fixed order of locking, so two steps touching the same orders cannot deadlock.
  for (const orderId of [...orders].sort()) {
    const change = await settleOrder(tx, orderId, view);
    if (change) changes.push(change);
  }
  return changes;
}
