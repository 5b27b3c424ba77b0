import 'server-only';
/**
 * Where a watcher is on its chain: the cursor of (network, mode) in `chain_cursors`, and the
 * hashes of the blocks it scanned in `chain_blocks`, kept to find the fork point of a
 * reorganisation (decision 006).
 */
import type { BlockRef, ChainAdapter } from '../chains';
import {
  bare,
  chainBlocks,
  chainCursors,
  chainTransfers,
  columnsOf,
  insertValues,
  param,
  partialSpends,
  sql,
  statement,
  unnest,
  type Queryable,
  type RowOf,
} from '../db';
import type { Mode } from '../protocol';

/** A block the watcher can stand on: where it is, and its own time. */
export interface ChainPoint {
  height: number;
  hash: string;
  blockTime: Date;
}

/** Where the watcher is: the block, and the chain time there (./chain-time). */
export interface ChainCursor extends ChainPoint {
  chainTime: Date;
}

type CursorRow = Pick<RowOf<typeof chainCursors>, 'height' | 'hash' | 'block_time' | 'chain_time'>;
type BlockRow = Pick<RowOf<typeof chainBlocks>, 'height' | 'hash'>;

/** Blocks whose hashes are kept to find a fork; deeper reorganisations need a rescan by hand. */
const KEPT_BLOCKS = 1000;

/** Where the statements name a cursor: its network and mode. */
type Key = { network: string; mode: Mode };
const OF_CURSOR = sql`${chainCursors.network} = ${param('network')} and ${chainCursors.mode} = ${param('mode')}`;
const OF_BLOCKS = sql`${chainBlocks.network} = ${param('network')} and ${chainBlocks.mode} = ${param('mode')}`;

const CURSOR = statement<CursorRow, Key>(
  sql`select ${columnsOf(chainCursors, ['height', 'hash', 'block_time', 'chain_time'])} from ${chainCursors} where ${OF_CURSOR}`,
);
const NEW_CURSOR = insertValues([
  [chainCursors.network, param('network')],
  [chainCursors.mode, param('mode')],
  [chainCursors.height, param('height')],
  [chainCursors.hash, param('hash')],
  [chainCursors.blockTime, param('blockTime')],
  [chainCursors.chainTime, param('chainTime')],
]);
const INSERT_CURSOR = statement<unknown, Key & { height: number; hash: string; blockTime: Date; chainTime: Date }>(
  sql`insert into ${chainCursors} (${NEW_CURSOR.columns}) values (${NEW_CURSOR.values}) on conflict do nothing`,
);

/**
 * The cursor of (network, mode), created where the watcher starts when there is none yet, with
 * `chainTimeAt` that block's chain time.
 */
export async function readCursor(
  db: Queryable,
  adapter: ChainAdapter,
  mode: Mode,
  startAt: 'genesis' | 'tip',
  head: BlockRef,
  chainTimeAt: (block: BlockRef) => Date,
): Promise<ChainCursor> {
  const network = adapter.network.name;
  const select = () => CURSOR.run(db, { network, mode });
  let [row] = await select();
  if (!row) {
    const start = startAt === 'tip' ? head : await adapter.block(0);
    if (!start) throw new Error(`${network}: the chain has no block 0`);
    await INSERT_CURSOR.run(db, {
      network,
      mode,
      height: start.height,
      hash: start.hash,
      blockTime: start.time,
      chainTime: chainTimeAt(start),
    });
    [row] = await select();
  }
  return cursorOf(row!);
}

function cursorOf(row: CursorRow): ChainCursor {
  return { height: Number(row.height), hash: row.hash, blockTime: row.block_time, chainTime: row.chain_time };
}

const SHARE_CURSOR = statement<CursorRow, Key>(
  sql`select ${columnsOf(chainCursors, ['height', 'hash', 'block_time', 'chain_time'])} from ${chainCursors} where ${OF_CURSOR} for share`,
);

/**
 * The cursor of (network, mode) as the last step committed it, held for the caller's
 * transaction: a step locks the cursor for update (a step under way is waited for; one starting
 * meanwhile skips the network), so no step moves it before the caller has decided by it.
 * Undefined before the watcher's first step.
 */
export async function holdCursor(tx: Queryable, network: string, mode: Mode): Promise<ChainCursor | undefined> {
  const [row] = await SHARE_CURSOR.run(tx, { network, mode });
  return row && cursorOf(row);
}

/** The cursor's height, or null before the watcher's first step. */
export async function cursorHeight(db: Queryable, network: string, mode: Mode): Promise<number | null> {
  const [row] = await CURSOR.run(db, { network, mode });
  return row ? Number(row.height) : null;
}

const LOCK_CURSOR = statement<Pick<CursorRow, 'height' | 'hash'>, Key>(
  sql`select ${columnsOf(chainCursors, ['height', 'hash'])} from ${chainCursors} where ${OF_CURSOR} for update skip locked`,
);

/**
 * Locks the cursor row for this step, if it is still where we read it. False when another worker
 * holds it (SKIP LOCKED: it is scanning this network right now) or has moved it meanwhile.
 */
export async function lockCursor(tx: Queryable, network: string, mode: Mode, seen: ChainCursor): Promise<boolean> {
  const [row] = await LOCK_CURSOR.run(tx, { network, mode });
  return !!row && Number(row.height) === seen.height && row.hash === seen.hash;
}

const KEPT_FROM = statement<BlockRow, Key & { from: number }>(
  sql`select ${columnsOf(chainBlocks, ['height', 'hash'])} from ${chainBlocks} where ${OF_BLOCKS} and ${chainBlocks.height} <= ${param('from')}
    order by ${chainBlocks.height} desc`,
);

/**
 * Whether a node that has no block at the cursor's height is only behind the chain we scanned: its
 * head is a block we scanned (or older than every block we kept, too deep to tell a fork there),
 * not another block at that height, which would be a fork to a shorter chain. Then the step has
 * nothing to do until the node catches up: reading its "no block" as a fork would un-count the
 * payments above its head (issue 32, item 5).
 */
export async function behindOurChain(db: Queryable, network: string, mode: Mode, head: BlockRef): Promise<boolean> {
  const [kept] = await KEPT_FROM.run(db, { network, mode, from: head.height });
  return !kept || Number(kept.height) !== head.height || kept.hash === head.hash;
}

/** The highest block we scanned that the chain still has, from the kept hashes. */
export async function findFork(db: Queryable, adapter: ChainAdapter, mode: Mode, from: number): Promise<ChainPoint> {
  const kept = await KEPT_FROM.run(db, { network: adapter.network.name, mode, from });
  for (const block of kept) {
    const onChain = await adapter.block(Number(block.height));
    if (onChain && onChain.hash === block.hash)
      return { height: onChain.height, hash: onChain.hash, blockTime: onChain.time };
  }
  const genesis = await adapter.block(0);
  if (!genesis) throw new Error(`${adapter.network.name}: reorganisation deeper than the kept blocks and no block 0`);
  return { height: 0, hash: genesis.hash, blockTime: genesis.time };
}

const UNBLOCK_ABOVE = statement<
  unknown,
  Key & { height: number }
>(sql`update ${chainTransfers} set ${bare(chainTransfers.blockHeight)} = null, ${bare(chainTransfers.blockHash)} = null
  where ${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')} and ${chainTransfers.blockHeight} > ${param('height')}`);
/** Spends in the replaced blocks are undone: the rescan records them again where the new chain has them. */
const UNSPEND_ABOVE = statement<
  unknown,
  Key & { height: number }
>(sql`update ${chainTransfers} set ${bare(chainTransfers.spentByTx)} = null, ${bare(chainTransfers.spentAtHeight)} = null
  where ${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')} and ${chainTransfers.spentAtHeight} > ${param('height')}`);
/** And so are the parts of transfers spent there (lib/payouts/plan-burns.ts). */
const UNSPEND_PARTS_ABOVE = statement<unknown, Key & { height: number }>(sql`delete from ${partialSpends}
  using ${chainTransfers}
  where ${chainTransfers.id} = ${partialSpends.transferId} and ${chainTransfers.network} = ${param('network')}
    and ${chainTransfers.mode} = ${param('mode')} and ${partialSpends.spentAtHeight} > ${param('height')}`);
const FORGET_ABOVE = statement<unknown, Key & { height: number }>(
  sql`delete from ${chainBlocks} where ${OF_BLOCKS} and ${chainBlocks.height} > ${param('height')}`,
);

/**
 * Back to the fork point: transfers of the replaced blocks lose their block (the rescan puts back
 * those the new chain still has; the others are dropped once the watcher is at the tip), and the
 * replaced blocks' hashes go.
 */
export async function rewind(tx: Queryable, network: string, mode: Mode, fork: ChainPoint): Promise<void> {
  await UNBLOCK_ABOVE.run(tx, { network, mode, height: fork.height });
  await UNSPEND_ABOVE.run(tx, { network, mode, height: fork.height });
  await UNSPEND_PARTS_ABOVE.run(tx, { network, mode, height: fork.height });
  await FORGET_ABOVE.run(tx, { network, mode, height: fork.height });
}

const SCANNED = unnest('b', { height: chainBlocks.height, hash: chainBlocks.hash });
const KEEP_BLOCKS = statement<
  unknown,
  Key
>(sql`insert into ${chainBlocks} (${bare(chainBlocks.network)}, ${bare(chainBlocks.mode)}, ${SCANNED.names})
  select ${param('network')}, ${param('mode')}, ${SCANNED.names} from ${SCANNED.from}
  on conflict (${bare(chainBlocks.network)}, ${bare(chainBlocks.mode)}, ${bare(chainBlocks.height)}) do update set ${bare(chainBlocks.hash)} = excluded.${bare(chainBlocks.hash)}`);
const FORGET_BELOW = statement<unknown, Key & { height: number }>(
  sql`delete from ${chainBlocks} where ${OF_BLOCKS} and ${chainBlocks.height} < ${param('height')}`,
);
const MOVE_CURSOR = statement<
  unknown,
  Key & { height: number; hash: string; blockTime: Date; chainTime: Date }
>(sql`update ${chainCursors}
    set ${bare(chainCursors.height)} = ${param('height')}, ${bare(chainCursors.hash)} = ${param('hash')}, ${bare(chainCursors.blockTime)} = ${param('blockTime')},
        ${bare(chainCursors.chainTime)} = ${param('chainTime')}, ${bare(chainCursors.updatedAt)} = now()
  where ${OF_CURSOR}`);

/**
 * Moves the cursor from `base` past the scanned blocks, keeping their hashes (and forgetting those
 * deeper than KEPT_BLOCKS); `chainTimes` are the blocks' chain times. After a reorganisation it is
 * written even without new blocks: the cursor goes back to the fork point. Answers the new cursor.
 */
export async function advanceCursor(
  tx: Queryable,
  network: string,
  mode: Mode,
  base: ChainCursor,
  blocks: readonly BlockRef[],
  chainTimes: readonly Date[],
  reorganised: boolean,
): Promise<ChainCursor> {
  const last = blocks[blocks.length - 1];
  const cursor = last
    ? { height: last.height, hash: last.hash, blockTime: last.time, chainTime: chainTimes[blocks.length - 1]! }
    : base;
  if (last) {
    await KEEP_BLOCKS.run(tx, { network, mode, ...SCANNED.values(blocks) });
    await FORGET_BELOW.run(tx, { network, mode, height: last.height - KEPT_BLOCKS });
  }
  if (last || reorganised) {
    await MOVE_CURSOR.run(tx, { network, mode, ...cursor });
  }
  return cursor;
}
