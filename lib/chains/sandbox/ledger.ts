import 'server-only';
/**
 * The sandbox ledger of test mode: one simulated chain per catalog network, with its blocks
 * (`sandbox_blocks`) and transfers (`sandbox_transfers`) in the database, in the network's real
 * address and hash formats. Payments of test mode enter the system here (`broadcast`), wait in the
 * mempool, are put into blocks (`mine`, or `startMining` on a timer) and can be reorganised away
 * (`drop`). The watcher reads the ledger like any chain, through the sandbox ChainAdapter (./index).
 *
 * Chain shape: height 0 is a genesis block with a fixed hash per network, created lazily on first
 * use so that every chain always has a tip; mined blocks start at height 1. Writes that change
 * the chain (`mine`, `drop`, `resetClock`) hold a transaction-scoped advisory lock per network, so concurrent
 * calls (several processes on PostgreSQL included) queue instead of forking the chain.
 */
import { findCurrency, findNetwork, type Network } from '../../catalog';
import { alias } from 'drizzle-orm/pg-core';
import {
  bare,
  columnsOf,
  insertValues,
  param,
  sandboxBlocks,
  sandboxTransactions,
  sandboxTransfers,
  sql,
  statement,
  unnest,
  type Database,
  type Queryable,
  type RowOf,
} from '../../db';
import { log } from '../../log';
import { MONEY_COLUMN_DIGITS } from '../../money';
import type { BlockRef, ChainSpend, ChainTransfer, FoundTransaction } from '../adapter';
import { deriveAddress, isValidAddress, testAccountXpub } from '../derivation';
import { solanaWalletOfSeed } from '../solana/address';
import { testSeed } from './test-seed';
import { genesisHash, normalizeTxHash, randomBlockHash, randomTxHash, zeroHash } from './tx-hash';
import { judgeSpend, mintPayment, mintsTransactions, readSpends, type HeldOutput } from './utxo-transactions';

/** A transfer to put into a network's mempool. */
export interface TransferInput {
  /** Recipient: a valid address of the network. */
  to: string;
  /** Destination tag, tag networks only: a decimal string in 0..2^32-1. */
  tag?: string | null;
  /** Ticker of one of the network's catalog currencies (any case). */
  currency: string;
  /** Base units, > 0. */
  amount: bigint;
  /** Sender; defaults to the network's sandbox faucet address. */
  from?: string;
  /** Mempool entry time; defaults to now. */
  at?: Date;
}

export interface BroadcastInput extends TransferInput {
  network: Network;
}

export interface Broadcasted {
  txHash: string;
  outputIndex: number;
}

/** Genesis blocks predate every block a caller may mine with an explicit time. */
const GENESIS_TIME = new Date(0);
const MAX_TAG = 2n ** 32n - 1n;
/** What the amount column holds. */
const MAX_AMOUNT = 10n ** BigInt(MONEY_COLUMN_DIGITS) - 1n;
/** The faucet is the test seed's last non-hardened child: never one of the pool's deposit addresses. */
const FAUCET_INDEX = 2 ** 31 - 1;

const faucets = new Map<string, string>();

/** The sandbox's default sender on `network`: a fixed, valid address derived from the test seed. */
export function faucetAddress(network: Network): string {
  let address = faucets.get(network.name);
  if (address === undefined) {
    // Solana derives nothing from a public key: the faucet is another account of the test seed.
    address =
      network.family === 'solana'
        ? solanaWalletOfSeed(testSeed(), FAUCET_INDEX)
        : deriveAddress(network, testAccountXpub(network), FAUCET_INDEX);
    faucets.set(network.name, address);
  }
  return address;
}

/**
 * The notification channel on which every write that changes a network's chain (a transfer into
 * its mempool, a block, a reorganisation) announces it, the network's name as payload. NOTIFY is
 * delivered on commit, to this process and (on PostgreSQL) every other: test mode's watchers pass
 * at once instead of polling (lib/watcher).
 */
export const SANDBOX_CHANNEL = 'sandbox_ledger';
const ANNOUNCE = statement<unknown, { network: string }>(
  sql`select pg_notify('${sql.raw(SANDBOX_CHANNEL)}', ${param('network')})`,
);

/** Announces a change to `network`'s chain on SANDBOX_CHANNEL, with the write's transaction. */
const announce = (db: Queryable, network: Network) => ANNOUNCE.run(db, { network: network.name });

// --- Writes ------------------------------------------------------------------------------------

/**
 * Puts one transfer into the network's mempool (block_height null). Throws, writing nothing, on
 * an unknown currency, a non-positive amount, an invalid address or a tag where the network has none.
 */
export async function broadcast(db: Queryable, input: BroadcastInput): Promise<Broadcasted> {
  const { network, ...transfer } = input;
  const [result] = await broadcastMany(db, network, [transfer]);
  return result!;
}

const NEW_TRANSFERS = unnest('t', {
  tx_hash: sandboxTransfers.txHash,
  output_index: sandboxTransfers.outputIndex,
  from_address: sandboxTransfers.fromAddress,
  to_address: sandboxTransfers.toAddress,
  tag: sandboxTransfers.tag,
  currency: sandboxTransfers.currency,
  amount: sandboxTransfers.amount,
  broadcast_at: 'timestamptz',
});
const INSERT_TRANSFERS = statement<
  unknown,
  { network: string }
>(sql`insert into ${sandboxTransfers} (${bare(sandboxTransfers.network)}, ${NEW_TRANSFERS.names})
  select ${param('network')}, ${NEW_TRANSFERS.names} from ${NEW_TRANSFERS.from}`);

const NEW_TRANSACTIONS = unnest('r', { tx_hash: sandboxTransactions.txHash, raw: sandboxTransactions.raw });
const INSERT_TRANSACTIONS = statement<unknown, { network: string }>(sql`insert into ${sandboxTransactions}
    (${bare(sandboxTransactions.network)}, ${NEW_TRANSACTIONS.names})
  select ${param('network')}, ${NEW_TRANSACTIONS.names} from ${NEW_TRANSACTIONS.from}`);

/**
 * Puts many transfers into the network's mempool in one INSERT, each as a transaction of its own
 * (output index 0). All are validated first: one invalid transfer rejects the batch, nothing written.
 * On the Bitcoin family each is a real transaction from the faucet, kept with its bytes
 * (./utxo-transactions.ts), so that a test-mode plan can spend it. Answers their hashes in input order.
 */
export async function broadcastMany(
  db: Queryable,
  network: Network,
  transfers: readonly TransferInput[],
): Promise<Broadcasted[]> {
  checkNetwork(network);
  if (transfers.length === 0) return [];
  const now = new Date();
  const valid = new Set<string>();
  const minted: { tx_hash: string; raw: string }[] = [];
  const rows = transfers.map((transfer, i) => {
    const checked = validTransfer(network, transfer, transfers.length > 1 ? `transfer #${i}: ` : '', valid, now);
    let txHash = randomTxHash(network);
    if (mintsTransactions(network)) {
      const tx = mintPayment(network, checked.to, BigInt(checked.amount));
      minted.push({ tx_hash: tx.txHash, raw: tx.raw });
      txHash = tx.txHash;
    }
    return { ...checked, txHash, outputIndex: 0 };
  });
  await inTransaction(db, async (tx) => {
    await insertTransfers(tx, network, rows);
    if (minted.length > 0)
      await INSERT_TRANSACTIONS.run(tx, { network: network.name, ...NEW_TRANSACTIONS.values(minted) });
  });
  return rows.map(({ txHash, outputIndex }) => ({ txHash, outputIndex }));
}

async function insertTransfers(
  db: Queryable,
  network: Network,
  rows: readonly (Pick<ValidTransfer, 'from' | 'to' | 'tag' | 'currency' | 'amount' | 'at'> & {
    txHash: string;
    outputIndex: number;
  })[],
): Promise<void> {
  await INSERT_TRANSFERS.run(db, {
    network: network.name,
    ...NEW_TRANSFERS.values(
      rows.map((r) => ({
        tx_hash: r.txHash,
        output_index: r.outputIndex,
        from_address: r.from,
        to_address: r.to,
        tag: r.tag,
        currency: r.currency,
        amount: r.amount,
        broadcast_at: r.at,
      })),
    ),
  });
  await announce(db, network);
}

interface ValidTransfer {
  to: string;
  tag: string | null;
  currency: string;
  amount: string;
  from: string;
  at: string;
}

function validTransfer(
  network: Network,
  t: TransferInput,
  where: string,
  valid: Set<string>,
  now: Date,
): ValidTransfer {
  const fail = (message: string): never => {
    throw new Error(`sandbox broadcast on ${network.name}: ${where}${message}`);
  };
  const currency = typeof t.currency === 'string' ? findCurrency(network, t.currency) : undefined;
  if (!currency)
    fail(`unknown currency "${String(t.currency)}" (${network.currencies.map((c) => c.ticker).join(', ')})`);
  if (typeof t.amount !== 'bigint') fail('amount must be a bigint of base units');
  if (t.amount <= 0n) fail(`amount must be positive, got ${t.amount}`);
  if (t.amount > MAX_AMOUNT) fail('amount is too large');
  const checkAddress = (role: string, address: unknown): string => {
    if (typeof address !== 'string' || (!valid.has(address) && !isValidAddress(network, address))) {
      fail(`${role} "${String(address)}" is not a valid ${network.displayName} address`);
    }
    valid.add(address as string);
    return address as string;
  };
  const to = checkAddress('recipient', t.to);
  const from = t.from === undefined ? faucetAddress(network) : checkAddress('sender', t.from);
  const tag = t.tag ?? null;
  if (tag !== null) {
    if (!network.usesTags) fail(`${network.displayName} has no destination tags, got tag "${String(tag)}"`);
    if (network.paymentReference) {
      // A Solana Pay reference: 32 bytes in base58, as an address is written.
      if (typeof tag !== 'string' || !isValidAddress(network, tag))
        fail(`a payment reference must be 32 bytes in base58, got "${String(tag)}"`);
    } else if (typeof tag !== 'string' || !/^(0|[1-9][0-9]{0,9})$/.test(tag) || BigInt(tag) > MAX_TAG) {
      fail(`destination tag must be a decimal integer in 0..${MAX_TAG}, got "${String(tag)}"`);
    }
  }
  const at = t.at ?? now;
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) fail('`at` must be a valid Date');
  return { to, tag, currency: currency!.ticker, amount: t.amount.toString(), from, at: at.toISOString() };
}

const NEW_BLOCKS = unnest('b', {
  height: sandboxBlocks.height,
  hash: sandboxBlocks.hash,
  parent_hash: sandboxBlocks.parentHash,
});
const INSERT_BLOCKS = statement<unknown, { network: string; minedAt: string }>(sql`insert into ${sandboxBlocks}
    (${bare(sandboxBlocks.network)}, ${NEW_BLOCKS.names}, ${bare(sandboxBlocks.minedAt)})
  select ${param('network')}, ${NEW_BLOCKS.names}, ${param('minedAt')} from ${NEW_BLOCKS.from}`);
const MINE_MEMPOOL = statement<
  unknown,
  { network: string; height: number }
>(sql`update ${sandboxTransfers} set ${bare(sandboxTransfers.blockHeight)} = ${param('height')}
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.blockHeight} is null and ${sandboxTransfers.droppedAt} is null`);

/**
 * Mines `count` blocks on top of the tip: the first takes every transfer waiting in the network's
 * mempool, the others are empty. Block time is `at` (default now), never earlier than the parent's.
 * Answers the new blocks, lowest first.
 *
 * Given the Database it runs in a transaction of its own; given an open transaction it uses it.
 */
export async function mine(db: Queryable, network: Network, count = 1, at?: Date): Promise<BlockRef[]> {
  checkNetwork(network);
  if (!Number.isSafeInteger(count) || count < 0)
    throw new Error(`sandbox mine: count must be a non-negative integer, got ${count}`);
  if (at !== undefined && (!(at instanceof Date) || Number.isNaN(at.getTime())))
    throw new Error('sandbox mine: `at` must be a valid Date');
  if (count === 0) return [];
  const wanted = at ?? new Date();
  return inTransaction(db, async (tx) => {
    await lockChain(tx, network);
    const parent = await tip(tx, network);
    const time = wanted.getTime() < parent.time.getTime() ? parent.time : wanted;
    const blocks: BlockRef[] = [];
    let previous = parent;
    for (let i = 1; i <= count; i++) {
      previous = { height: parent.height + i, hash: randomBlockHash(network), parentHash: previous.hash, time };
      blocks.push(previous);
    }
    await INSERT_BLOCKS.run(tx, {
      network: network.name,
      minedAt: time.toISOString(),
      ...NEW_BLOCKS.values(blocks.map((b) => ({ height: b.height, hash: b.hash, parent_hash: b.parentHash }))),
    });
    await MINE_MEMPOOL.run(tx, { network: network.name, height: parent.height + 1 });
    await announce(tx, network);
    return blocks;
  });
}

const DELETE_BLOCKS_ABOVE = statement<Pick<RowOf<typeof sandboxBlocks>, 'height'>, { network: string; height: number }>(
  sql`delete from ${sandboxBlocks} where ${sandboxBlocks.network} = ${param('network')} and ${sandboxBlocks.height} > ${param('height')} returning ${bare(sandboxBlocks.height)}`,
);
const UNMINE_ABOVE = statement<
  unknown,
  { network: string; height: number }
>(sql`update ${sandboxTransfers} set ${bare(sandboxTransfers.blockHeight)} = null
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.blockHeight} > ${param('height')}`);

/**
 * Puts the network back on the wall clock after blocks were dated ahead of it (`mine` with a
 * future `at`), which would otherwise date every later block too and expire test orders at once.
 * It is a reorganisation back to the last block dated at or before `now`: the blocks dated later
 * are removed and their transfers return to the mempool, so the next block (dated now) takes
 * them again. Block times still only go forward along the chain, and the watcher meets an
 * ordinary reorganisation (orders already final stay final). See docs/decisions/016-*.md.
 * Answers the tip left and how many blocks were removed (0: no block was ahead of `now`).
 */
export async function resetClock(
  db: Queryable,
  network: Network,
  now = new Date(),
): Promise<{ tip: BlockRef; removed: number }> {
  checkNetwork(network);
  if (!(now instanceof Date) || Number.isNaN(now.getTime()))
    throw new Error('sandbox reset-clock: `now` must be a valid Date');
  return inTransaction(db, async (tx) => {
    await lockChain(tx, network);
    await tip(tx, network); // the genesis block, dated 1970, is always there to fall back to
    const [row] = await LAST_BLOCK_AT.run(tx, { network: network.name, at: now.toISOString() });
    const kept = toBlock(row!);
    const removed = await DELETE_BLOCKS_ABOVE.run(tx, { network: network.name, height: kept.height });
    await UNMINE_ABOVE.run(tx, { network: network.name, height: kept.height });
    if (removed.length > 0) await announce(tx, network);
    return { tip: kept, removed: removed.length };
  });
}

const LOCK_TRANSACTION = statement<
  { block_height: number | null; dropped: boolean },
  { network: string; txHash: string }
>(
  sql`select ${sandboxTransfers.blockHeight}::int as block_height, ${sandboxTransfers.droppedAt} is not null as dropped
    from ${sandboxTransfers} where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.txHash} = ${param('txHash')} for update`,
);
const DROP_TRANSACTION = statement<
  unknown,
  { network: string; txHash: string; at: string }
>(sql`update ${sandboxTransfers}
    set ${bare(sandboxTransfers.droppedAt)} = ${param('at')}, ${bare(sandboxTransfers.blockHeight)} = null
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.txHash} = ${param('txHash')} and ${sandboxTransfers.droppedAt} is null`);

const UNSPEND = statement<unknown, { network: string; txHash: string }>(
  sql`update ${sandboxTransfers} set ${bare(sandboxTransfers.spentByTx)} = null
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.spentByTx} = ${param('txHash')}`,
);

/**
 * Simulates a reorganisation that removes transaction `txHash` (hex, any case): its transfers are
 * marked dropped and leave their block. When it had been mined at height h, every block from h up
 * gets a new hash (parents re-chained), so a watcher comparing hashes sees a reorg from h; the other
 * transfers keep their heights. A mempool transaction is just dropped; dropping twice is a no-op.
 * Throws for a transaction the ledger does not have.
 */
export async function drop(db: Queryable, network: Network, txHash: string, at?: Date): Promise<void> {
  checkNetwork(network);
  const hash = normalizeTxHash(network, txHash);
  if (hash === undefined)
    throw new Error(`sandbox drop on ${network.name}: "${txHash}" is not a transaction hash of the network`);
  const when = (at ?? new Date()).toISOString();
  await inTransaction(db, async (tx) => {
    await lockChain(tx, network);
    const rows = await LOCK_TRANSACTION.run(tx, { network: network.name, txHash: hash });
    if (rows.length === 0) throw new Error(`sandbox drop on ${network.name}: unknown transaction ${txHash}`);
    const live = rows.filter((r) => !r.dropped);
    if (live.length === 0) return;
    await DROP_TRANSACTION.run(tx, { network: network.name, txHash: hash, at: when });
    // What it spent is unspent again, as on a chain that lost the spending transaction.
    await UNSPEND.run(tx, { network: network.name, txHash: hash });
    const heights = live.map((r) => r.block_height).filter((h): h is number => h !== null);
    if (heights.length > 0) await rehashFrom(tx, network, Math.min(...heights));
    await announce(tx, network);
  });
}

const PARENT_AND_TOP = statement<{ parent: string | null; top: number | null }, { network: string; height: number }>(
  sql`select (select ${sandboxBlocks.hash} from ${sandboxBlocks} where ${sandboxBlocks.network} = ${param('network')} and ${sandboxBlocks.height} = ${param('height')} - 1) as parent,
             (select max(${sandboxBlocks.height})::int from ${sandboxBlocks} where ${sandboxBlocks.network} = ${param('network')}) as top`,
);
const REHASHED = unnest('n', {
  height: sandboxBlocks.height,
  hash: sandboxBlocks.hash,
  parent_hash: sandboxBlocks.parentHash,
});
const n = REHASHED.ref;
const REHASH = statement<unknown, { network: string }>(sql`update ${sandboxBlocks}
    set ${bare(sandboxBlocks.hash)} = ${n.hash}, ${bare(sandboxBlocks.parentHash)} = ${n.parent_hash}
   from ${REHASHED.from}
  where ${sandboxBlocks.network} = ${param('network')} and ${sandboxBlocks.height} = ${n.height}`);

/** Gives every block from `height` up a new hash, each one's parent being the new hash below it. */
async function rehashFrom(tx: Queryable, network: Network, height: number): Promise<void> {
  const [row] = await PARENT_AND_TOP.run(tx, { network: network.name, height });
  if (!row || row.parent === null || row.top === null)
    throw new Error(`sandbox ledger of ${network.name}: no block below height ${height}`);
  const blocks: { height: number; hash: string; parent_hash: string }[] = [];
  let parent = row.parent;
  for (let h = height; h <= row.top; h++) {
    const hash = randomBlockHash(network);
    blocks.push({ height: h, hash, parent_hash: parent });
    parent = hash;
  }
  await REHASH.run(tx, { network: network.name, ...REHASHED.values(blocks) });
}

const OUTPOINTS = unnest('p', { tx_hash: sandboxTransfers.txHash, output_index: sandboxTransfers.outputIndex });
const p = OUTPOINTS.ref;
const HELD = statement<
  { tx_hash: string; output_index: number; to_address: string; amount: string; spent_by_tx: string | null },
  { network: string }
>(sql`select ${columnsOf(sandboxTransfers, ['tx_hash', 'output_index', 'to_address', 'spent_by_tx'])}, ${sandboxTransfers.amount}::text as amount
  from ${sandboxTransfers} join ${OUTPOINTS.from} on ${sandboxTransfers.txHash} = ${p.tx_hash} and ${sandboxTransfers.outputIndex} = ${p.output_index}
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.droppedAt} is null
  for update of ${sandboxTransfers}`);
const KNOWN = statement<{ known: boolean }, { network: string; txHash: string }>(
  sql`select exists (select 1 from ${sandboxTransfers} where ${sandboxTransfers.network} = ${param('network')}
    and ${sandboxTransfers.txHash} = ${param('txHash')} and ${sandboxTransfers.droppedAt} is null) as known`,
);
const MARK_SPENT = statement<unknown, { network: string; spentBy: string }>(sql`update ${sandboxTransfers}
    set ${bare(sandboxTransfers.spentByTx)} = ${param('spentBy')}
   from ${OUTPOINTS.from}
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.txHash} = ${p.tx_hash}
    and ${sandboxTransfers.outputIndex} = ${p.output_index} and ${sandboxTransfers.droppedAt} is null`);
const UPSERT_TRANSACTION = statement<unknown, { network: string; txHash: string; raw: string }>(
  sql`insert into ${sandboxTransactions} (${bare(sandboxTransactions.network)}, ${bare(sandboxTransactions.txHash)}, ${bare(sandboxTransactions.raw)})
    values (${param('network')}, ${param('txHash')}, ${param('raw')})
  on conflict (${bare(sandboxTransactions.network)}, ${bare(sandboxTransactions.txHash)}) do update set ${bare(sandboxTransactions.raw)} = excluded.${bare(sandboxTransactions.raw)}`,
);

/** What the sandbox answered a signed transaction: taken (now, or before), or refused with every reason. */
export type SandboxBroadcast = { outcome: 'taken'; txHash: string } | { outcome: 'refused'; reason: string };

/**
 * Takes a signed transaction (hex) of a Bitcoin-family network into its mempool, as a node's
 * `sendrawtransaction` would (docs/decisions/097): when it spends outputs of the sandbox not spent
 * yet, pays no more than they hold, and every input's signature verifies. Its outputs become
 * transfers, mined by the next block; the outputs it spends are marked spent by it, which the
 * adapter's `scan` reports as spends once it is in a block. A transaction taken before is taken
 * again; a refused one writes nothing.
 */
export async function takeTransaction(db: Queryable, network: Network, rawTx: string): Promise<SandboxBroadcast> {
  checkNetwork(network);
  if (!mintsTransactions(network))
    return { outcome: 'refused', reason: `the sandbox's ${network.name} takes no signed transactions` };
  const read = /^([0-9a-f]{2})+$/i.test(rawTx) ? readSpends(rawTx) : null;
  if (!read) return { outcome: 'refused', reason: 'the transaction does not decode' };
  return inTransaction(db, async (tx) => {
    await lockChain(tx, network);
    const [known] = await KNOWN.run(tx, { network: network.name, txHash: read.txHash });
    const outpoints = OUTPOINTS.values(read.spends.map((s) => ({ tx_hash: s.txHash, output_index: s.outputIndex })));
    const rows = await HELD.run(tx, { network: network.name, ...outpoints });
    const held = new Map<string, HeldOutput>(
      rows.map((r) => [
        `${r.tx_hash}:${r.output_index}`,
        {
          txHash: r.tx_hash,
          outputIndex: r.output_index,
          address: r.to_address,
          amount: BigInt(r.amount),
          spentByTx: r.spent_by_tx,
        },
      ]),
    );
    const judged = judgeSpend(network, rawTx, held, () => known!.known);
    if (judged.outcome === 'refused') return judged;
    if (judged.outcome === 'known') return { outcome: 'taken', txHash: judged.txHash };
    const at = new Date().toISOString();
    await insertTransfers(
      tx,
      network,
      judged.outputs.map((o) => ({
        txHash: judged.txHash,
        outputIndex: o.outputIndex,
        from: judged.from,
        to: o.to,
        tag: null,
        currency: network.currencies[0]!.ticker,
        amount: o.amount.toString(),
        at,
      })),
    );
    await UPSERT_TRANSACTION.run(tx, { network: network.name, txHash: judged.txHash, raw: rawTx.toLowerCase() });
    await MARK_SPENT.run(tx, { network: network.name, spentBy: judged.txHash, ...outpoints });
    return { outcome: 'taken', txHash: judged.txHash };
  });
}

/**
 * Mines one block on each of `networks` every `intervalMs` until the answered function is called,
 * skipping a network for which `wanted` answers false (nothing is waiting for a block there).
 * A run still in progress when the next is due makes that one skip; failures are logged, never
 * thrown. The timer does not keep the process alive.
 */
export function startMining(
  db: Queryable,
  networks: readonly Network[],
  intervalMs: number,
  wanted: (network: Network) => Promise<boolean> = async () => true,
): () => void {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0)
    throw new Error(`sandbox mining interval must be positive, got ${intervalMs}`);
  let running = false;
  let stopped = false;
  const run = async () => {
    for (const network of networks) {
      if (stopped) return;
      try {
        if (await wanted(network)) await mine(db, network, 1);
      } catch (error) {
        log.error('sandbox: mining a block failed', { network: network.name, error });
      }
    }
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = true;
    run()
      .catch((error: unknown) => log.error('sandbox: mining run failed', { error }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

// --- Reads (what the adapter answers) ----------------------------------------------------------

/** A row of BLOCK_COLUMNS (the height cast to int). */
type BlockRow = Pick<RowOf<typeof sandboxBlocks>, 'hash' | 'parent_hash' | 'mined_at'> & { height: number };

/** A row of TRANSFER_COLUMNS (the block height cast to int). */
type TransferRow = Pick<
  RowOf<typeof sandboxTransfers>,
  'tx_hash' | 'output_index' | 'from_address' | 'to_address' | 'tag' | 'currency' | 'amount' | 'broadcast_at'
> & { block_height: number | null };

const BLOCK_COLUMNS = sql`${sandboxBlocks.height}::int as height, ${columnsOf(sandboxBlocks, ['hash', 'parent_hash', 'mined_at'])}`;
const TRANSFER_COLUMNS = sql`${columnsOf(sandboxTransfers, ['tx_hash', 'output_index', 'from_address', 'to_address', 'tag', 'currency'])},
  ${sandboxTransfers.amount}::text as amount, ${sandboxTransfers.blockHeight}::int as block_height, ${sandboxTransfers.broadcastAt}`;

const TIP = statement<BlockRow, { network: string }>(
  sql`select ${BLOCK_COLUMNS} from ${sandboxBlocks} where ${sandboxBlocks.network} = ${param('network')} order by ${sandboxBlocks.height} desc limit 1`,
);
const LAST_BLOCK_AT = statement<BlockRow, { network: string; at: string }>(
  sql`select ${BLOCK_COLUMNS} from ${sandboxBlocks} where ${sandboxBlocks.network} = ${param('network')} and ${sandboxBlocks.minedAt} <= ${param('at')}
    order by ${sandboxBlocks.height} desc limit 1`,
);
const BLOCK_AT = statement<BlockRow, { network: string; height: number }>(
  sql`select ${BLOCK_COLUMNS} from ${sandboxBlocks} where ${sandboxBlocks.network} = ${param('network')} and ${sandboxBlocks.height} = ${param('height')}`,
);
const BLOCKS_BETWEEN = statement<BlockRow, { network: string; low: number; high: number }>(
  sql`select ${BLOCK_COLUMNS} from ${sandboxBlocks}
    where ${sandboxBlocks.network} = ${param('network')} and ${sandboxBlocks.height} between ${param('low')} and ${param('high')} order by ${sandboxBlocks.height}`,
);
const TRANSFERS_BETWEEN = statement<
  TransferRow,
  { network: string; low: number; high: number }
>(sql`select ${TRANSFER_COLUMNS} from ${sandboxTransfers}
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.blockHeight} between ${param('low')} and ${param('high')}
    and ${sandboxTransfers.droppedAt} is null
  order by ${sandboxTransfers.blockHeight}, ${sandboxTransfers.txHash}, ${sandboxTransfers.outputIndex}`);
const MEMPOOL = statement<TransferRow, { network: string }>(sql`select ${TRANSFER_COLUMNS} from ${sandboxTransfers}
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.blockHeight} is null and ${sandboxTransfers.droppedAt} is null
  order by ${sandboxTransfers.broadcastAt}, ${sandboxTransfers.txHash}, ${sandboxTransfers.outputIndex}`);

const TRANSFERS_OF_TX = statement<
  TransferRow,
  { network: string; txHash: string }
>(sql`select ${TRANSFER_COLUMNS} from ${sandboxTransfers}
  where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.txHash} = ${param('txHash')} and ${sandboxTransfers.droppedAt} is null
  order by ${sandboxTransfers.outputIndex}`);

const spender = alias(sandboxTransfers, 'spender');
type SpendRow = {
  spent_tx: string;
  spent_index: number;
  tx_hash: string;
  to_address: string;
  block_height: number;
  broadcast_at: Date;
};
/** Outputs spent by a transaction mined in the range (its first output names where the money went). */
const SPENDS_BETWEEN = statement<SpendRow, { network: string; low: number; high: number }>(sql`select
    ${sandboxTransfers.txHash} as spent_tx, ${sandboxTransfers.outputIndex} as spent_index, ${spender.txHash} as tx_hash,
    ${spender.toAddress} as to_address, ${spender.blockHeight}::int as block_height, ${spender.broadcastAt} as broadcast_at
  from ${sandboxTransfers} join ${sandboxTransfers} spender on ${spender.network} = ${sandboxTransfers.network} and ${spender.txHash} = ${sandboxTransfers.spentByTx}
    and ${spender.outputIndex} = 0 and ${spender.droppedAt} is null
  where ${sandboxTransfers.network} = ${param('network')} and ${spender.blockHeight} between ${param('low')} and ${param('high')}
  order by ${spender.blockHeight}, ${spender.txHash}, ${sandboxTransfers.txHash}, ${sandboxTransfers.outputIndex}`);
const WANTED_HASHES = unnest('w', { tx_hash: sandboxTransactions.txHash });
const RAW_TRANSACTIONS = statement<{ tx_hash: string; raw: string }, { network: string }>(
  sql`select ${columnsOf(sandboxTransactions, ['tx_hash', 'raw'])} from ${sandboxTransactions}
    join ${WANTED_HASHES.from} on ${sandboxTransactions.txHash} = ${WANTED_HASHES.ref.tx_hash}
  where ${sandboxTransactions.network} = ${param('network')}`,
);

const toSpend = (r: SpendRow): ChainSpend => ({
  txHash: r.tx_hash,
  spentTxHash: r.spent_tx,
  spentOutputIndex: r.spent_index,
  to: r.to_address,
  seenAt: new Date(r.broadcast_at),
  blockHeight: r.block_height,
});

const toBlock = (r: BlockRow): BlockRef => ({
  height: r.height,
  hash: r.hash,
  parentHash: r.parent_hash,
  time: new Date(r.mined_at),
});

const toTransfer = (r: TransferRow): ChainTransfer => ({
  txHash: r.tx_hash,
  outputIndex: r.output_index,
  from: r.from_address,
  to: r.to_address,
  tag: r.tag,
  currency: r.currency,
  amount: BigInt(r.amount),
  blockHeight: r.block_height,
  // The ledger had it from its broadcast on, whether mined since or not.
  seenAt: new Date(r.broadcast_at),
});

/** The tip of the network's chain; creates the genesis block on first use. */
export async function tip(db: Queryable, network: Network): Promise<BlockRef> {
  const [row] = await TIP.run(db, { network: network.name });
  return row ? toBlock(row) : createGenesis(db, network);
}

/** The block at `height`, or null above the tip (the genesis block at 0 always exists). */
export async function blockAt(db: Queryable, network: Network, height: number): Promise<BlockRef | null> {
  if (!Number.isSafeInteger(height) || height < 0) return null;
  const [row] = await BLOCK_AT.run(db, { network: network.name, height });
  if (row) return toBlock(row);
  return height === 0 ? createGenesis(db, network) : null;
}

/**
 * Blocks `from`..`to` and their transfers (not dropped), in block, transaction and output order,
 * and on the Bitcoin family the outputs their transactions spend: two or three queries whatever the range. Blocks are read first and transfers only up to the last block
 * read, so a block mined in between is left for the next scan, and a transfer dropped in between
 * (whose block hashes changed after they were read) is caught by the watcher's next hash check.
 */
export async function scanRange(
  db: Queryable,
  network: Network,
  from: number,
  to: number,
): Promise<{ blocks: BlockRef[]; transfers: ChainTransfer[]; spends?: ChainSpend[] }> {
  const low = Math.max(0, Math.ceil(from));
  const high = Math.floor(to);
  if (!Number.isFinite(low) || !Number.isFinite(high) || low > high) return { blocks: [], transfers: [] };
  const blockRows = await BLOCKS_BETWEEN.run(db, { network: network.name, low, high });
  const blocks = blockRows.map(toBlock);
  const last = blocks.at(-1);
  if (!last) return { blocks, transfers: [] };
  const range = { network: network.name, low: blocks[0]!.height, high: last.height };
  const transferRows = await TRANSFERS_BETWEEN.run(db, range);
  if (!mintsTransactions(network)) return { blocks, transfers: transferRows.map(toTransfer) };
  // As a node's blocks say: each output's block hash (a plan asks for its transaction in that block).
  const hashes = new Map(blocks.map((b) => [b.height, b.hash]));
  const spendRows = await SPENDS_BETWEEN.run(db, range);
  return {
    blocks,
    transfers: transferRows.map((r) => ({ ...toTransfer(r), blockHash: hashes.get(r.block_height!)! })),
    spends: spendRows.map(toSpend),
  };
}

/**
 * The transactions `txHashes` of a Bitcoin-family network as the sandbox keeps them (hex, by id):
 * what a test-mode plan carries as each input's previous transaction. A payment made before the
 * sandbox kept transactions has none.
 */
export async function rawTransactions(
  db: Queryable,
  network: Network,
  txHashes: readonly string[],
): Promise<Map<string, string>> {
  const rows = await RAW_TRANSACTIONS.run(db, {
    network: network.name,
    ...WANTED_HASHES.values(txHashes.map((h) => ({ tx_hash: h }))),
  });
  return new Map(rows.map((r) => [r.tx_hash, r.raw]));
}

/** Each output's amount while it is in a block and unspent, else null (a node's `gettxout`, mempool left out). */
export async function unspentAmounts(
  db: Queryable,
  network: Network,
  wanted: readonly { txid: string; vout: number }[],
): Promise<(bigint | null)[]> {
  const rows = await HELD.run(db, {
    network: network.name,
    ...OUTPOINTS.values(wanted.map((w) => ({ tx_hash: w.txid, output_index: w.vout }))),
  });
  const unspent = new Map(
    rows.filter((r) => r.spent_by_tx === null).map((r) => [`${r.tx_hash}:${r.output_index}`, BigInt(r.amount)]),
  );
  return wanted.map((w) => unspent.get(`${w.txid}:${w.vout}`) ?? null);
}

/** Transfers waiting in the network's mempool (not dropped), oldest first. */
export async function mempoolTransfers(db: Queryable, network: Network): Promise<ChainTransfer[]> {
  const rows = await MEMPOOL.run(db, { network: network.name });
  return rows.map(toTransfer);
}

/**
 * The transaction `txHash` of the network's ledger (any spelling of its hash), with its
 * confirmations; null when the ledger has none, or only dropped transfers of it.
 */
export async function ledgerTransaction(
  db: Queryable,
  network: Network,
  txHash: string,
): Promise<FoundTransaction | null> {
  const canonical = normalizeTxHash(network, txHash);
  if (!canonical) return null;
  const rows = await TRANSFERS_OF_TX.run(db, { network: network.name, txHash: canonical });
  if (rows.length === 0) return null;
  const height = rows[0]!.block_height;
  if (height === null) return { transfers: rows.map(toTransfer), confirmations: 0, blockHash: null, fee: null };
  const [top, block] = await Promise.all([tip(db, network), blockAt(db, network, height)]);
  return {
    transfers: rows.map(toTransfer),
    confirmations: top.height - height + 1,
    blockHash: block?.hash ?? null,
    fee: null,
  };
}

// --- Helpers -----------------------------------------------------------------------------------

const GENESIS = insertValues([
  [sandboxBlocks.network, param('network')],
  [sandboxBlocks.height, sql`0`],
  [sandboxBlocks.hash, param('hash')],
  [sandboxBlocks.parentHash, param('parentHash')],
  [sandboxBlocks.minedAt, param('minedAt')],
]);
const INSERT_GENESIS = statement<unknown, { network: string; hash: string; parentHash: string; minedAt: string }>(
  sql`insert into ${sandboxBlocks} (${GENESIS.columns}) values (${GENESIS.values}) on conflict (${bare(sandboxBlocks.network)}, ${bare(sandboxBlocks.height)}) do nothing`,
);

async function createGenesis(db: Queryable, network: Network): Promise<BlockRef> {
  const genesis: BlockRef = {
    height: 0,
    hash: genesisHash(network),
    parentHash: zeroHash(network),
    time: GENESIS_TIME,
  };
  await INSERT_GENESIS.run(db, {
    network: network.name,
    hash: genesis.hash,
    parentHash: genesis.parentHash,
    minedAt: genesis.time.toISOString(),
  });
  return genesis;
}

const LOCK_CHAIN = statement<unknown, { network: string }>(
  sql`select 1 as locked from (select pg_advisory_xact_lock(hashtext('sandbox_ledger'), hashtext(${param('network')}))) l`,
);

/** Serialises the chain-changing writes of one network until the transaction ends. */
async function lockChain(tx: Queryable, network: Network): Promise<void> {
  await LOCK_CHAIN.run(tx, { network: network.name });
}

function isDatabase(db: Queryable): db is Database {
  return typeof (db as Partial<Database>).transaction === 'function';
}

function inTransaction<T>(db: Queryable, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return isDatabase(db) ? db.transaction(work) : work(db);
}

function checkNetwork(network: Network): void {
  if (!network || typeof network.name !== 'string' || !findNetwork(network.name)) {
    throw new Error(`sandbox ledger: unknown network "${String(network?.name)}"`);
  }
}
