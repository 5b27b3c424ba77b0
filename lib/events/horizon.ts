import 'server-only';
/**
 * The feed's horizon (docs/decisions/050): the writing-transaction id below which every
 * transaction that could have written events has ended, as this statement's snapshot sees it. An
 * event (and a webhook) is handed out only below it, so nothing can later commit before a cursor
 * already handed out.
 *
 * It is the lowest transaction still running when the snapshot was taken (`pg_snapshot_xip`), or
 * the snapshot's `xmax` when none runs, leaving out transactions of other databases of the same
 * server, which never write these events: a long write in another database (another application,
 * or another test file on the test server) does not hold this one's feed back. A transaction is
 * known to be another database's while it runs, by its lock on its own id (`pg_locks`, readable by
 * every role) and its backend's database (`pg_stat_activity.datname`, likewise). One that ended
 * since the snapshot, or whose backend is unknown, counts: never a reason to pass an event.
 * `transactionid` is a 32-bit xid; the snapshot's are 64-bit (epoch and xid).
 */
import { sql } from '../db';

export const FEED_HORIZON = sql`(select least(pg_snapshot_xmax(pg_current_snapshot()), min(running.xid))
    from pg_snapshot_xip(pg_current_snapshot()) as running(xid)
   where running.xid::text::numeric % 4294967296 not in (
     select l.transactionid::text::numeric from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'transactionid' and l.mode = 'ExclusiveLock' and l.granted and a.datname <> current_database()))`;
