import 'server-only';
/**
 * The expiry sweeper: decides pending orders whose deadline has passed, but only as far as the
 * network's watcher has scanned. An order is never decided from the wall clock alone: if the
 * watcher is stopped or behind, a payment made in time may be sitting in a block it has not read,
 * so the order waits until the chain time at the cursor (./chain-time, the clock that dates the
 * transfers of its blocks too) is past `expiresAt`.
 */
import type { ChainAdapter } from '../chains';
import { chainCursors, columnsOf, orders, param, sql, statement, type Database, type RowOf } from '../db';
import { holdCursor } from './cursor';
import type { RiskScreen } from '../risk';
import { judgedAt } from './scan';
import { settleOrder, type StatusChange } from './settle';
import type { Mode } from '../protocol';

const SWEEP_BATCH = 500;

const CURSOR = statement<Pick<RowOf<typeof chainCursors>, 'chain_time'>, { network: string; mode: Mode }>(
  sql`select ${columnsOf(chainCursors, ['chain_time'])} from ${chainCursors}
    where ${chainCursors.network} = ${param('network')} and ${chainCursors.mode} = ${param('mode')}`,
);
// The batch is written into the text (not a parameter), as the limit always was.
const DUE = statement<
  Pick<RowOf<typeof orders>, 'id'>,
  { network: string; mode: Mode; before: Date }
>(sql`select ${orders.id} from ${orders}
  where ${orders.status} = 'pending' and ${orders.expiresAt} < ${param('before')} and ${orders.network} = ${param('network')} and ${orders.mode} = ${param('mode')}
  order by ${orders.expiresAt} limit ${sql.raw(String(SWEEP_BATCH))}`);

export async function sweepExpired(
  db: Database,
  adapter: ChainAdapter,
  mode: Mode,
  screen: RiskScreen,
  now = () => new Date(),
  chainClock = false,
): Promise<StatusChange[]> {
  const network = adapter.network.name;
  // Which orders may be due: each is then judged by the cursor as it stands in its transaction.
  const [cursor] = await CURSOR.run(db, { network, mode });
  if (!cursor) return [];
  const due = await DUE.run(db, { network, mode, before: cursor.chain_time });
  const changes: StatusChange[] = [];
  for (const { id } of due) {
    // One transaction per order: the row lock makes a payment settling the same order wait, and
    // whichever commits second sees the final status and leaves it. The cursor is read (and
    // held) inside it: read before, a step committed meanwhile (a reorganisation to a shorter
    // chain) would leave the order judged by a tip the chain no longer has.
    const change = await db.transaction(async (tx) => {
      const held = await holdCursor(tx, network, mode);
      if (!held) return null;
      return settleOrder(tx, id, {
        now: judgedAt(now(), held.chainTime, chainClock),
        tipHeight: held.height,
        tipTime: held.chainTime,
        requiredConfirmations: adapter.requiredConfirmations,
        screen,
      });
    });
    if (change) changes.push(change);
  }
  return changes;
}
