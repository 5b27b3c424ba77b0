import 'server-only';
/**
 * The expiry sweeper: decides pending orders whose deadline has passed, but only as far as the
 * network's watcher has scanned. An order is never decided from the wall clock alone: if the
 * watcher is stopped or behind, a payment made in time may be sitting in a block it has not read,
 * so the order waits until the cursor's block time is past `expiresAt`.
 */
import type { ChainAdapter } from '../chains';
import type { chainCursors, Database, orders, RowOf } from '../db';
import type { RiskScreen } from '../risk';
import { judgedAt } from './scan';
import { settleOrder, type StatusChange } from './settle';
import type { Mode } from '../protocol';

const SWEEP_BATCH = 500;

export async function sweepExpired(
  db: Database,
  adapter: ChainAdapter,
  mode: Mode,
  screen: RiskScreen,
  now = () => new Date(),
  chainClock = false,
): Promise<StatusChange[]> {
  const [cursor] = await db.query<Pick<RowOf<typeof chainCursors>, 'height' | 'block_time'>>(
    'select height, block_time from chain_cursors where network = $1 and mode = $2',
    [adapter.network.name, mode],
  );
  if (!cursor) return [];
  const due = await db.query<Pick<RowOf<typeof orders>, 'id'>>(
    `select id from orders where status = 'pending' and expires_at < $3 and network = $1 and mode = $2
      order by expires_at limit ${SWEEP_BATCH}`,
    [adapter.network.name, mode, cursor.block_time],
  );
  const changes: StatusChange[] = [];
  for (const { id } of due) {
    // One transaction per order: the row lock makes a payment settling the same order wait, and
    // whichever commits second sees the final status and leaves it.
    const change = await db.transaction((tx) =>
      settleOrder(tx, id, {
        now: judgedAt(now(), cursor.block_time, chainClock),
        tipHeight: Number(cursor.height),
        tipTime: cursor.block_time,
        requiredConfirmations: adapter.requiredConfirmations,
        screen,
      }),
    );
    if (change) changes.push(change);
  }
  return changes;
}
