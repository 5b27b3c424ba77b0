import 'server-only';
/**
 * Where a watcher is on its chain: the cursor of (network, mode) in `chain_cursors`, and the
 * hashes of the blocks it scanned in `chain_blocks`, kept to find the fork point of a
 * reorganisation (decision 006).
 */
import type { BlockRef, ChainAdapter } from '../chains';
import type { chainBlocks, chainCursors, Queryable, RowOf } from '../db';
import type { Mode } from '../protocol';

export interface ChainCursor {
  height: number;
  hash: string;
  blockTime: Date;
}

type CursorRow = Pick<RowOf<typeof chainCursors>, 'height' | 'hash' | 'block_time'>;
type BlockRow = Pick<RowOf<typeof chainBlocks>, 'height' | 'hash'>;

/** Blocks whose hashes are kept to find a fork; deeper reorganisations need a rescan by hand. */
const KEPT_BLOCKS = 1000;

/** The cursor of (network, mode), created where the watcher starts when there is none yet. */
export async function readCursor(db: Queryable, adapter: ChainAdapter, mode: Mode, startAt: 'genesis' | 'tip', head: BlockRef): Promise<ChainCursor> {
  const network = adapter.network.name;
  const select = () =>
    db.query<CursorRow>('select height, hash, block_time from chain_cursors where network = $1 and mode = $2', [network, mode]);
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
export async function lockCursor(tx: Queryable, network: string, mode: Mode, seen: ChainCursor): Promise<boolean> {
  const [row] = await tx.query<Pick<CursorRow, 'height' | 'hash'>>(
    'select height, hash from chain_cursors where network = $1 and mode = $2 for update skip locked',
    [network, mode],
  );
  return !!row && Number(row.height) === seen.height && row.hash === seen.hash;
}

/** The highest block we scanned that the chain still has, from the kept hashes. */
export async function findFork(db: Queryable, adapter: ChainAdapter, mode: Mode, from: number): Promise<ChainCursor> {
  const kept = await db.query<BlockRow>(
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
 * Back to the fork point: transfers of the replaced blocks lose their block (the rescan puts back
 * those the new chain still has; the others are dropped once the watcher is at the tip), and the
 * replaced blocks' hashes go.
 */
export async function rewind(tx: Queryable, network: string, mode: Mode, fork: ChainCursor): Promise<void> {
  await tx.query('update chain_transfers set block_height = null where network = $1 and mode = $2 and block_height > $3', [
    network, mode, fork.height,
  ]);
  await tx.query('delete from chain_blocks where network = $1 and mode = $2 and height > $3', [network, mode, fork.height]);
}

/**
 * Moves the cursor from `base` past the scanned blocks, keeping their hashes (and forgetting those
 * deeper than KEPT_BLOCKS). After a reorganisation it is written even without new blocks: the
 * cursor goes back to the fork point. Answers the new cursor.
 */
export async function advanceCursor(
  tx: Queryable,
  network: string,
  mode: Mode,
  base: ChainCursor,
  blocks: readonly BlockRef[],
  reorganised: boolean,
): Promise<ChainCursor> {
  const last = blocks[blocks.length - 1];
  const cursor = last ? { height: last.height, hash: last.hash, blockTime: last.time } : base;
  if (last) {
    await tx.query(
      `insert into chain_blocks (network, mode, height, hash) select $1, $2, h, x from unnest($3::bigint[], $4::text[]) as b(h, x)
       on conflict (network, mode, height) do update set hash = excluded.hash`,
      [network, mode, blocks.map((b) => b.height), blocks.map((b) => b.hash)],
    );
    await tx.query('delete from chain_blocks where network = $1 and mode = $2 and height < $3', [network, mode, last.height - KEPT_BLOCKS]);
  }
  if (last || reorganised) {
    await tx.query('update chain_cursors set height = $3, hash = $4, block_time = $5, updated_at = now() where network = $1 and mode = $2', [
      network, mode, cursor.height, cursor.hash, cursor.blockTime,
    ]);
  }
  return cursor;
}
