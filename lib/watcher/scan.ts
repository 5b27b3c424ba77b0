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
 *
 * The step's pieces: ./cursor (where the watcher is, and reorganisations), ./transfers (incoming
 * transfers: matched, dropped, still confirming), ./withdrawals (outgoing ones), ./settle (the
 * order and deposit state machines applied to what the step touched).
 */
import { receivingAccountsToWatch } from '../addresses';
import type { BlockRef, ChainAdapter, ChainSpend, ChainTransfer } from '../chains';
import type { Database } from '../db';
import type { RiskScreen } from '../risk';
import { chainTimes } from './chain-time';
import {
  advanceCursor,
  behindOurChain,
  cursorHeight,
  findFork,
  lockCursor,
  readCursor,
  rewind,
  type ChainCursor,
} from './cursor';
import { referenceRounds, renewSpentReferences } from './references';
import { settleTransfers, type ChainView, type StatusChange } from './settle';
import { dropVanished, recordIncoming, stillConfirming } from './transfers';
import { recordWithdrawals } from './withdrawals';
import { log } from '../log';
import {
  evmPlansWithNoncesUsed,
  evmRefundSightings,
  settleCollections,
  sweptCoinSightings,
  tronRefundSightings,
  xrplRefundSightings,
} from '../payouts';
import { settleRefundPlans } from '../refunds';
import type { Mode } from '../protocol';

export interface WatchOptions {
  /** Most blocks one step scans (one transaction). */
  batchBlocks: number;
  /** Where a watcher without a cursor starts: 'genesis' (the sandbox) or 'tip' (a live chain). */
  startAt: 'genesis' | 'tip';
  screen: RiskScreen;
  now?: () => Date;
  /**
   * The chain is the sandbox ledger, the test world's clock: its block times are its chain time
   * (./chain-time), and that time counts when it is ahead of the wall clock, so that a block dated
   * ahead (`npm run sandbox -- mine NETWORK --at TIME`) lets test orders expire without waiting out
   * their lifetime. Never for live chains, where a block may be dated up to two hours ahead of the
   * real time.
   */
  chainClock?: boolean;
}

/** The time orders are judged at: the wall clock, or the chain time when it runs ahead (chainClock). */
export function judgedAt(now: Date, chainTime: Date, chainClock: boolean | undefined): Date {
  return chainClock && chainTime.getTime() > now.getTime() ? chainTime : now;
}

export interface StepResult {
  /** False when another worker holds this network's cursor. */
  ran: boolean;
  scannedBlocks: number;
  cursor: number;
  /** The chain tip the step read (-1 when it did not run). */
  head: number;
  matchedTransfers: number;
  changes: StatusChange[];
  reorgFrom?: number;
}

/** What a step read from the chain, before its transaction opens. */
interface ChainRead {
  /** The gateway's clock when the chain was read. */
  now: Date;
  mempool: ChainTransfer[];
  head: BlockRef;
  /** The cursor as the step found it. */
  seen: ChainCursor;
  /** Where the step scans from: the cursor, or after a reorganisation the fork point. */
  base: ChainCursor;
  reorgFrom?: number;
  blocks: BlockRef[];
  /** The chain time at each of `blocks`. */
  chainTimes: Date[];
  /** Those in blocks dated by their block's chain time. */
  transfers: ChainTransfer[];
  spends: ChainSpend[];
  /** Solana: what the receiving wallets sent (ChainAdapter.scan), for refund plans. */
  outgoing: ChainTransfer[];
}

const idle = (): StepResult => ({
  ran: false,
  scannedBlocks: 0,
  cursor: -1,
  head: -1,
  matchedTransfers: 0,
  changes: [],
});

export async function watchStep(
  db: Database,
  adapter: ChainAdapter,
  mode: Mode,
  options: WatchOptions,
): Promise<StepResult> {
  const network = adapter.network.name;
  const read = await readChain(db, adapter, mode, options);
  if (!read) return idle();
  const { now, mempool, head, seen, base, reorgFrom, blocks, transfers, spends } = read;
  // EVM plans whose nonces other transactions took, at the height this step scans to: asked of the node before the transaction opens.
  const scannedTo = blocks.at(-1)?.height ?? base.height;
  const noncesUsed = await evmPlansWithNoncesUsed(db, adapter.network, mode, scannedTo);
  const evmRefunds = await evmRefundSightings(db, adapter.network, mode, scannedTo);
  const tronRefunds = await tronRefundSightings(db, adapter.network, mode, scannedTo);
  const sweptCoin = await sweptCoinSightings(db, adapter.network, mode, transfers);
  const xrplRefunds = await xrplRefundSightings(db, adapter.network, mode, scannedTo);
  return db.transaction(async (tx) => {
    // Another worker that moved the cursor since we read it has done this step already.
    if (!(await lockCursor(tx, network, mode, seen))) return idle();
    if (reorgFrom !== undefined) await rewind(tx, network, mode, base);
    const touched = new Set<string>();
    let matchedTransfers = 0;
    // A payment reference pays once: a second transaction under one is recorded after the first
    // spent it (./references).
    for (const round of referenceRounds(adapter.network, transfers)) {
      matchedTransfers += await recordIncoming(tx, network, mode, round, touched);
      await renewSpentReferences(tx, adapter.network, mode, [...touched]);
    }
    await recordWithdrawals(tx, adapter.network, mode, transfers, spends);
    const cursor = await advanceCursor(tx, network, mode, base, blocks, read.chainTimes, reorgFrom !== undefined);
    // Collection plans move with the spends of their inputs (account chains: their transfers to the treasury), in this step.
    const planChanges = await settleCollections(tx, adapter.network, mode, cursor.height, {
      transfers,
      mempool,
      now,
      noncesUsed,
      sweptCoin,
      evmRefunds,
      tronRefunds,
      xrplRefunds,
      outgoing: read.outgoing,
      chainTime: cursor.chainTime,
    });
    for (const change of planChanges) log.info('collection plan', { network, mode, ...change });
    // A refund plan's refund moves with it, its event in this step's transaction.
    await settleRefundPlans(tx, planChanges, now);
    matchedTransfers += await recordIncoming(tx, network, mode, mempool, touched);
    if (cursor.height >= head.height) await dropVanished(tx, network, mode, mempool, touched);
    // Transfers that were still short of their confirmations before this step may have them now.
    await stillConfirming(
      tx,
      network,
      mode,
      Math.min(seen.height, base.height),
      adapter.requiredConfirmations,
      touched,
    );

    const view: ChainView = {
      now: judgedAt(now, cursor.chainTime, options.chainClock),
      tipHeight: cursor.height,
      tipTime: cursor.chainTime,
      requiredConfirmations: adapter.requiredConfirmations,
      screen: options.screen,
    };
    const changes = await settleTransfers(tx, [...touched], view);
    return {
      ran: true,
      scannedBlocks: blocks.length,
      cursor: cursor.height,
      head: head.height,
      matchedTransfers,
      changes,
      reorgFrom,
    };
  });
}

/**
 * Everything a step needs from the chain, read before the transaction opens: a database
 * transaction never waits on a node (and the sandbox ledger, which lives in the same database,
 * never waits on itself). The mempool is read before the tip: a transfer that leaves it is then in
 * a block at or below the tip we scan to, so it is never in neither. Every read goes to one node
 * (ChainAdapter.pin, where the adapter has several), one whose head reached the cursor if any did.
 * Null when the chain changed while it was read, or when the node is behind the cursor on the
 * chain we scanned (it has no block at the cursor's height, and is no fork): nothing to do yet.
 * On a chain that can lose blocks (ChainAdapter.truncates, the sandbox) that is a reorganisation.
 */
async function readChain(
  db: Database,
  adapter: ChainAdapter,
  mode: Mode,
  options: WatchOptions,
): Promise<ChainRead | null> {
  const now = options.now?.() ?? new Date();
  const ledger = options.chainClock === true;
  const network = adapter.network.name;
  // An adapter that reads by account reads the merchants' own too (decisions 096, 114), and the
  // earlier ones open orders were issued to (decision 100).
  adapter.watchAccounts?.(await receivingAccountsToWatch(db, adapter.network, mode));
  const chain = adapter.pin ? await adapter.pin((await cursorHeight(db, network, mode)) ?? 0) : adapter;
  const mempool = await chain.mempool();
  const head = await chain.head();
  const startTime = (start: BlockRef) => chainTimes(new Date(0), [start], now, ledger)[0]!;
  const seen = await readCursor(db, chain, mode, options.startAt, head, startTime);
  let base = seen;
  let reorgFrom: number | undefined;
  const onChain = await chain.block(seen.height);
  if (!onChain) {
    if (head.height >= seen.height)
      throw new Error(`${network}: the node has no block ${seen.height} below its head ${head.height}`);
    if (!adapter.truncates && (await behindOurChain(db, network, mode, head))) return null;
  }
  if (!onChain || onChain.hash !== seen.hash) {
    const fork = await findFork(db, chain, mode, seen.height);
    // Chain time does not go back with a reorganisation, but on the ledger, whose time it is:
    // reorganising away the blocks dated ahead is how the sandbox's clock is put back (016).
    base = { ...fork, chainTime: ledger ? fork.blockTime : seen.chainTime };
    reorgFrom = base.height + 1;
  }
  const to = Math.min(head.height, base.height + options.batchBlocks);
  const {
    blocks,
    transfers,
    spends = [],
    outgoing = [],
  } = to > base.height ? await chain.scan(base.height + 1, to) : { blocks: [], transfers: [] };
  // The first new block must build on the base: if the chain changed between reading the base and
  // scanning, this step would skip the fork. The next pass sees the change and finds the fork.
  if (blocks[0] && blocks[0].parentHash !== base.hash) return null;
  const times = chainTimes(base.chainTime, blocks, now, ledger);
  const byHeight = new Map(blocks.map((block, i) => [block.height, { block, chainTime: times[i]! }]));
  const dated = transfers.map((t) => {
    const at = t.blockHeight === null ? undefined : byHeight.get(t.blockHeight);
    return at ? { ...t, seenAt: seenInBlock(t.seenAt, at.block, at.chainTime) } : t;
  });
  return { now, mempool, head, seen, base, reorgFrom, blocks, chainTimes: times, transfers: dated, spends, outgoing };
}

/**
 * When a transfer in `block` was first seen: the time its node saw it when that is before the
 * block's own (a mempool entry the node remembers), else the chain time at the block, never its
 * own time, which may be dated before its parent's (./chain-time).
 */
function seenInBlock(reported: Date, block: BlockRef, chainTime: Date): Date {
  return reported.getTime() < block.time.getTime() && reported.getTime() < chainTime.getTime() ? reported : chainTime;
}
