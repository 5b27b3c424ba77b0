import 'server-only';
/**
 * The chain workers of one process: per network and mode a watcher loop (scan, then sweep
 * expired orders), the webhook dispatcher and the mailer (lib/mail), and in test mode the sandbox
 * ledger's block timer. They run inside the server on the embedded database (instrumentation.ts)
 * and as `npm run worker` processes on PostgreSQL.
 */
import type { Network } from '../catalog';
import {
  enabledNetworks,
  liveAdapters,
  requiredConfirmations,
  sandboxAdapter,
  SANDBOX_CHANNEL,
  startMining,
  type ChainAdapter,
} from '../chains';
import { config } from '../config';
import {
  chainTransfers,
  collectionPlans,
  deposits,
  orders,
  param,
  refunds,
  sandboxTransfers,
  sql,
  statement,
  type Database,
} from '../db';
import { log } from '../log';
import { metrics } from '../metrics';
import { processSlot } from '../process';
import { sweepInvoices } from '../invoices';
import { denyListScreen, type RiskScreen } from '../risk';
import { sweepExpired } from './expiry';
import { reportHealth, type WatchProgress } from './health';
import { registerWaker, wakeWatcher } from './wake';
import { watchStep, type WatchOptions } from './scan';
import type { StatusChange } from './settle';
import { startDispatcher } from '../webhooks';
import { startMailer } from '../mail';
import { recheckRefundsSentByHand } from '../refunds';
import { runRenewals } from '../subscriptions';
import { MODE_VALUES, type Mode } from '../protocol';

export { watchStep, type StepResult, type WatchOptions } from './scan';
export { sweepExpired } from './expiry';
export { chainHealth, type NetworkHealth, type WatchProgress } from './health';
export { settleOrder, type StatusChange } from './settle';
export { wakeWatcher } from './wake';

/** Blocks one step reads at most: bounds a step's transaction while catching up. */
const BATCH_BLOCKS = 100;

/**
 * How often a test network's watcher passes when the sandbox ledger announced nothing: every
 * change to its chain wakes it at once (SANDBOX_CHANNEL), so the timer is left only what the
 * clock alone moves (an order whose chain time passed its expiry waits for the server's clock
 * too), and that pass is skipped while nothing waits for a block there (sandboxNeedsBlocks).
 * Passing every WATCH_INTERVAL_MS over eleven idle networks cost an idle gateway about a quarter
 * of a core.
 */
const SANDBOX_IDLE_PASS_MS = 5000;

/**
 * The adapters of `mode`: the sandbox ledger for every test network, requiring test mode's
 * confirmations; live chains come with their adapters.
 */
export function chainAdapters(db: Database, mode: Mode): ChainAdapter[] {
  if (mode === 'live') return liveAdapters();
  return enabledNetworks('test').map((network) => sandboxAdapter(db, network, requiredConfirmations('test', network)));
}

export function riskScreen(): RiskScreen {
  return denyListScreen(config().riskDenyList);
}

export function watchOptions(mode: Mode): WatchOptions {
  return {
    batchBlocks: BATCH_BLOCKS,
    startAt: mode === 'test' ? 'genesis' : 'tip',
    screen: riskScreen(),
    chainClock: mode === 'test',
  };
}

/** Logs status changes (their webhooks were written to the outbox in the change's transaction). */
function reportChanges(network: string, mode: Mode, changes: readonly StatusChange[]): void {
  for (const change of changes) log.info('order status changed', { network, mode, ...change });
}

/**
 * One full pass over a network: scan until caught up with the tip, then sweep expired orders.
 * Answers where the pass left the cursor and the tip it saw, unless another worker held the cursor.
 */
export async function watchNetwork(
  db: Database,
  adapter: ChainAdapter,
  mode: Mode,
  options = watchOptions(mode),
): Promise<WatchProgress | undefined> {
  let progress: WatchProgress | undefined;
  for (;;) {
    const step = await watchStep(db, adapter, mode, options);
    reportChanges(adapter.network.name, mode, step.changes);
    if (step.ran) progress = { head: step.head, cursor: step.cursor };
    if (step.matchedTransfers > 0)
      metrics().transfersMatched.inc({ network: adapter.network.name, mode }, step.matchedTransfers);
    if (step.reorgFrom !== undefined)
      log.warn('chain reorganisation', { network: adapter.network.name, mode, from: step.reorgFrom });
    if (!step.ran || step.scannedBlocks < options.batchBlocks) break;
  }
  reportChanges(
    adapter.network.name,
    mode,
    await sweepExpired(db, adapter, mode, options.screen, options.now, options.chainClock),
  );
  // Refunds sent by hand are no plan's: their confirmations are asked of the chain (docs/decisions/092).
  await recheckRefundsSentByHand(db, adapter, mode, options.now?.() ?? new Date());
  return progress;
}

const SANDBOX_NEEDS_BLOCKS = statement<{ wanted: boolean }, { network: string; now: Date }>(
  sql`select exists (select 1 from ${orders} where ${orders.network} = ${param('network')} and ${orders.mode} = 'test' and ${orders.status} = 'pending'
                       and (${orders.expiresAt} <= ${param('now')} or exists (select 1 from ${chainTransfers} where ${chainTransfers.orderId} = ${orders.id})))
      or exists (select 1 from ${sandboxTransfers}
                  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.blockHeight} is null and ${sandboxTransfers.droppedAt} is null)
      or exists (select 1 from ${deposits} where ${deposits.network} = ${param('network')} and ${deposits.mode} = 'test' and ${deposits.status} = 'PENDING')
      or exists (select 1 from ${collectionPlans} where ${collectionPlans.network} = ${param('network')} and ${collectionPlans.mode} = 'test'
                   and (${collectionPlans.status} = 'broadcast' or (${collectionPlans.status} = 'prepared' and ${collectionPlans.txid} is not null)))
      or exists (select 1 from ${refunds} where ${refunds.network} = ${param('network')} and ${refunds.mode} = 'test' and ${refunds.state} = 'sent') as wanted`,
);

/**
 * Whether a test network has anything waiting for a block: an open order with a payment (its
 * confirmations) or past its deadline (test mode judges expiry on chain time: a block dated now
 * lets it expire), a transfer in the mempool, a deposit, a submitted plan or a sent refund short
 * of confirmations. An open order
 * that nothing was paid to and whose time has not run out waits for no block: a sandbox whose
 * orders all wait for their payer stops growing by a block per network every few seconds, and its
 * watchers by a pass per block.
 */
async function sandboxNeedsBlocks(db: Database, network: Network): Promise<boolean> {
  const [row] = await SANDBOX_NEEDS_BLOCKS.run(db, { network: network.name, now: new Date() });
  return row!.wanted;
}

/**
 * Runs `pass` now and again `intervalMs` after each one ends (never two at once), until
 * `stopped()`; a failed pass is logged as `failure` and the next one runs on time. `stop()` waits
 * for the pass under way.
 */
function repeatPass(pass: () => Promise<void>, failure: string, intervalMs: number, stopped: () => boolean): Workers {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopped()) return;
    running = pass()
      .catch((error: unknown) => log.warn(failure, { error: (error as Error)?.message }))
      .finally(() => {
        if (!stopped()) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  tick();
  return {
    async stop() {
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * Expires, every `intervalMs`, the invoices whose time ran out with no order running (./expiry
 * does it for orders, on chain time; these have no chain to wait for).
 */
const startInvoiceSweep = (db: Database, intervalMs: number, stopped: () => boolean): Workers =>
  repeatPass(
    async () => (await sweepInvoices(db)).forEach((change) => log.info('invoice status changed', { ...change })),
    'invoice sweep failed',
    intervalMs,
    stopped,
  );

/**
 * The subscriptions' renewal pass (lib/subscriptions), beside the invoice sweep and at its pace:
 * counts paid invoices, starts periods, makes the renewal invoices due and their mails. Each
 * subscription is its own transaction under a row lock (skipped while another worker holds it).
 */
const startRenewals = (db: Database, intervalMs: number, stopped: () => boolean): Workers =>
  repeatPass(
    async () => {
      const { changed } = await runRenewals(db);
      if (changed > 0) log.info('subscriptions renewed', { changed });
    },
    'renewal pass failed',
    intervalMs,
    stopped,
  );

export interface Workers {
  stop(): Promise<void>;
}

interface WorkersSlot {
  /** Sets of workers started and not stopped. */
  count: number;
  /** The networks they watch. */
  watched: { network: string; mode: Mode }[];
}
const workersSlot = () => processSlot<WorkersSlot>('workers', () => ({ count: 0, watched: [] }));

/** What this process's workers watch, when it runs them (readiness asks): undefined when it does not. */
export function runningWorkers(): { watched: readonly { network: string; mode: Mode }[] } | undefined {
  const slot = workersSlot();
  return slot.count > 0 ? { watched: slot.watched } : undefined;
}

/**
 * Starts the watchers of both modes (and the sandbox's miner unless SANDBOX_BLOCK_SECONDS is 0)
 * and the webhook dispatcher. Each network loops on its own timer, so a slow or failing chain
 * never holds up the others; a new block announced (./wake) starts its pass at once.
 */
export function startWorkers(db: Database): Workers {
  const cfg = config();
  const running = workersSlot();
  running.count++;
  const stopMining =
    cfg.sandboxBlockMs > 0
      ? startMining(db, enabledNetworks('test'), cfg.sandboxBlockMs, (n) => sandboxNeedsBlocks(db, n))
      : () => {};
  let stopped = false;
  const passes = new Set<Promise<void>>();
  const timers = new Map<string, NodeJS.Timeout>();
  const unsubscribes: (() => void)[] = [];
  const testNetworks = enabledNetworks('test');
  const wakeTestNetworks = () => testNetworks.forEach((network) => wakeWatcher(network.name, 'test'));
  db.listen(SANDBOX_CHANNEL, (network) => wakeWatcher(network, 'test'), wakeTestNetworks).catch((error: unknown) =>
    log.warn('sandbox ledger announcements unavailable; test networks are polled', {
      error: (error as Error)?.message,
    }),
  );
  for (const mode of MODE_VALUES) {
    const intervalMs = mode === 'test' ? Math.max(cfg.watchIntervalMs, SANDBOX_IDLE_PASS_MS) : cfg.watchIntervalMs;
    for (const adapter of chainAdapters(db, mode)) {
      if (!running.watched.some((w) => w.network === adapter.network.name && w.mode === mode))
        running.watched.push({ network: adapter.network.name, mode });
      const options = watchOptions(mode);
      const key = `${mode}/${adapter.network.name}`;
      // A wake during a pass asks for another right after it: the block announced may have
      // arrived after the pass read the tip.
      let passing = false;
      let again = false;
      // A test network's timer pass is skipped while nothing there waits for a block: every
      // change to its chain is announced, and only an open order's deadline moves with time.
      const idle = async (fromTimer: boolean) =>
        fromTimer && mode === 'test' && !(await sandboxNeedsBlocks(db, adapter.network));
      const tick = (fromTimer = false) => {
        if (stopped) return;
        clearTimeout(timers.get(key));
        passing = true;
        const pass = idle(fromTimer)
          .then((skipped) => (skipped ? undefined : watchNetwork(db, adapter, mode, options)))
          .then(
            (progress) => reportHealth(adapter.network.name, mode, null, progress),
            (error) => reportHealth(adapter.network.name, mode, error),
          )
          .finally(() => {
            passes.delete(pass);
            passing = false;
            if (stopped) return;
            if (again) {
              again = false;
              setImmediate(() => tick());
            } else {
              timers.set(key, setTimeout(() => tick(true), intervalMs).unref());
            }
          });
        passes.add(pass);
      };
      const wake = () => {
        if (passing) again = true;
        else tick();
      };
      unsubscribes.push(registerWaker(adapter.network.name, mode, wake));
      if (adapter.subscribeNewBlocks) unsubscribes.push(adapter.subscribeNewBlocks(wake));
      tick();
    }
  }
  const invoices = startInvoiceSweep(db, cfg.watchIntervalMs, () => stopped);
  const renewals = startRenewals(db, cfg.watchIntervalMs, () => stopped);
  const dispatcher = startDispatcher(db);
  const mailer = startMailer(db);
  log.info('workers started', { sandboxBlockSeconds: cfg.sandboxBlockMs / 1000, watchIntervalMs: cfg.watchIntervalMs });
  return {
    async stop() {
      if (!stopped && --running.count === 0) running.watched = [];
      stopped = true;
      stopMining();
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.all([...passes, invoices.stop(), renewals.stop(), dispatcher.stop(), mailer.stop()]);
    },
  };
}
