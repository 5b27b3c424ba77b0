import 'server-only';
/**
 * The ChainAdapter of the Bitcoin family (bitcoin, litecoin, bitcoincash, dogecoin) over a node's
 * Bitcoin Core JSON-RPC interface. Watch-only: the node needs no wallet; deposit addresses come
 * from the merchant's extended public key (../derivation) and are matched by the watcher.
 *
 * Calls per block do not depend on how many addresses are watched: one `getblockhash` and one
 * `getblock` per block (batched per scan), plus per watcher pass the tip, the cursor's block (reorg
 * check) and the mempool's new transactions. Outputs become transfers, inputs become spends (how a
 * withdrawal from a deposit address is seen: Litecoin Core 0.21 does not name an input's address).
 */
import { z } from 'zod';
import type { Network } from '../../catalog';
import type { LiveChainConfig } from '../../config';
import { parseUnits } from '../../money';
import type { BlockRef, ChainSpend, ChainTransfer, FoundTransaction, TransactionHint } from '../adapter';
import type { LiveAdapter } from '../live-adapter';
import { JsonRpcClient, RpcError, type RpcCall } from './rpc';

const hash = z.string().regex(/^[0-9a-f]{64}$/);
const header = z.object({
  hash,
  height: z.number().int().nonnegative(),
  time: z.number().int(),
  previousblockhash: hash.optional(),
});
const scriptPubKey = z.object({ address: z.string().optional(), addresses: z.array(z.string()).optional() });
const tx = z.object({
  txid: hash,
  vin: z.array(
    z.object({
      coinbase: z.string().optional(),
      txid: hash.optional(),
      vout: z.number().int().nonnegative().optional(),
      // getblock verbosity 3 (Bitcoin Core 25+): the spent output.
      prevout: z.object({ scriptPubKey }).optional(),
    }),
  ),
  // Amounts arrive as text (rpc.ts), 8 decimals.
  vout: z.array(z.object({ value: z.string(), n: z.number().int().nonnegative(), scriptPubKey })),
});
const fullBlock = header.extend({ tx: z.array(tx) });
/** getrawtransaction verbose: where the transaction is (no `blockhash` in the mempool). */
const lookedUp = tx.extend({
  blockhash: hash.optional(),
  confirmations: z.number().int().optional(),
  in_active_chain: z.boolean().optional(),
  time: z.number().int().optional(),
});
/** getmempoolentry: the fee in the coin (Bitcoin Core 0.17+ `fees.base`; older nodes `fee`). */
const mempoolEntry = z.object({
  fees: z.object({ base: z.string() }).optional(),
  fee: z.string().optional(),
  time: z.number().int(),
});
const idBlock = header.extend({ tx: z.array(hash) });
type Tx = z.output<typeof tx>;

/** The error code of "No such mempool or blockchain transaction" (and "not found in the block"). */
const NO_SUCH_TRANSACTION = -5;
/** Most blocks a transaction is looked for in, back from the tip, without -txindex (about 3.5 days of litecoin). */
const TRANSACTION_SEARCH_BLOCKS = 2016;
/** Block times may run up to two hours ahead of the real time (the consensus rule). */
const BLOCK_TIME_SLACK_MS = 2 * 60 * 60 * 1000;

function addressOf(key: z.output<typeof scriptPubKey>): string | null {
  // Before Bitcoin Core 22 (Litecoin Core 0.21, dogecoind) a standard output lists one address.
  return key.address ?? (key.addresses?.length === 1 ? key.addresses[0]! : null);
}

/**
 * The outputs of `t` that pay an address, as transfers of `network`'s coin (a coinbase pays no
 * one: mining rewards are not payments). Throws on an amount the coin cannot hold.
 */
function utxoTransfers(
  network: Network,
  t: Tx,
  block: { height: number; hash: string } | null,
  seenAt: Date,
): ChainTransfer[] {
  const { ticker, decimals } = network.currencies[0]!;
  if (t.vin.some((i) => i.coinbase !== undefined)) return [];
  const first = t.vin[0]?.prevout;
  const from = first ? addressOf(first.scriptPubKey) : null;
  const spentOutpoints = t.vin.flatMap((i) =>
    i.txid !== undefined && i.vout !== undefined ? [`${i.txid}:${i.vout}`] : [],
  );
  const transfers: ChainTransfer[] = [];
  for (const out of t.vout) {
    const to = addressOf(out.scriptPubKey);
    if (!to) continue; // OP_RETURN, bare multisig, non-standard
    const parsed = parseUnits(out.value, decimals);
    if (!parsed.ok)
      throw new RpcError(`${network.name} node: output amount "${out.value}" is not a ${decimals}-decimal amount`);
    if (parsed.value <= 0n) continue;
    transfers.push({
      txHash: t.txid,
      outputIndex: out.n,
      from,
      to,
      tag: null,
      currency: ticker,
      amount: parsed.value,
      blockHeight: block?.height ?? null,
      ...(block ? { blockHash: block.hash } : {}),
      seenAt,
      spentOutpoints,
    });
  }
  return transfers;
}

/**
 * A `getrawtransaction txid true [blockhash]` answer as a found transaction: null when it is not
 * on the node's best chain (`in_active_chain` false, or a block answer without confirmations).
 * `mempoolFee` is the mempool entry's fee (coin, text) for one not mined yet. The block's
 * height is the node's tip less its confirmations, plus one.
 */
export function utxoFoundTransaction(
  network: Network,
  answer: unknown,
  tipHeight: number,
  mempoolFee: string | null,
): FoundTransaction | null {
  const t = lookedUp.parse(answer);
  const decimals = network.currencies[0]!.decimals;
  if (t.blockhash === undefined) {
    const fee = mempoolFee === null ? null : parseUnits(mempoolFee, decimals);
    return {
      transfers: utxoTransfers(network, t, null, new Date((t.time ?? Date.now() / 1000) * 1000)),
      confirmations: 0,
      blockHash: null,
      fee: fee?.ok ? fee.value : null,
    };
  }
  if (t.in_active_chain === false || !t.confirmations || t.confirmations < 1) return null;
  const height = tipHeight - t.confirmations + 1;
  return {
    transfers: utxoTransfers(network, t, { height, hash: t.blockhash }, new Date((t.time ?? 0) * 1000)),
    confirmations: t.confirmations,
    blockHash: t.blockhash,
    fee: null,
  };
}

/** The error code of "Block height out of range" (getblockhash above the tip). */
const HEIGHT_OUT_OF_RANGE = -8;
/** Mempool transactions fetched per batch. */
const MEMPOOL_BATCH = 200;

export function utxoAdapter(network: Network, cfg: LiveChainConfig): LiveAdapter {
  const rpc = new JsonRpcClient(cfg.rpc, `${network.name} node at ${cfg.rpc.url}`);
  // Headers are immutable per hash: the tip's and the cursor's are asked for on every pass.
  const headers = new Map<string, BlockRef>();
  // Mempool transactions already read, by txid: each is fetched once while it waits.
  let mempoolSeen = new Map<string, ChainTransfer[]>();
  // Nodes without getblock verbosity 2 (dogecoind 1.14 takes a boolean): then the transactions
  // are read with getrawtransaction, which there needs -txindex.
  let verbosity: 3 | 'ids' = 3;

  const toRef = (h: z.output<typeof header>): BlockRef => ({
    height: h.height,
    hash: h.hash,
    parentHash: h.previousblockhash ?? '0'.repeat(64),
    time: new Date(h.time * 1000),
  });

  async function headerOf(blockHash: string): Promise<BlockRef> {
    let ref = headers.get(blockHash);
    if (!ref) {
      ref = toRef(await rpc.call('getblockheader', [blockHash], header));
      if (headers.size > 2000) headers.clear();
      headers.set(blockHash, ref);
    }
    return ref;
  }

  /** Outputs of a non-coinbase transaction as transfers, inputs as spends. */
  function read(
    t: Tx,
    block: { height: number; hash: string } | null,
    seenAt: Date,
    transfers: ChainTransfer[],
    spends?: ChainSpend[],
  ): void {
    if (t.vin.some((i) => i.coinbase !== undefined)) return; // mining rewards are not payments
    transfers.push(...utxoTransfers(network, t, block, seenAt));
    if (spends) {
      const firstTo = t.vout.map((out) => addressOf(out.scriptPubKey)).find((to) => to !== null) ?? null;
      for (const input of t.vin) {
        if (input.txid === undefined || input.vout === undefined) continue;
        spends.push({
          txHash: t.txid,
          spentTxHash: input.txid,
          spentOutputIndex: input.vout,
          to: firstTo,
          seenAt,
          ...(block ? { blockHeight: block.height } : {}),
        });
      }
    }
  }

  async function blocksByHash(hashes: string[]): Promise<{ header: z.output<typeof header>; txs: Tx[] }[]> {
    if (verbosity === 3) {
      try {
        // One block per request: a mainnet block is megabytes of JSON.
        const out = [];
        for (const h of hashes) {
          const b = await rpc.call('getblock', [h, 3], fullBlock);
          out.push({ header: b, txs: b.tx });
        }
        return out;
      } catch (error) {
        if (!(error instanceof RpcError) || error.code === undefined || !/bool/i.test(error.message)) throw error;
        verbosity = 'ids';
      }
    }
    const out = [];
    for (const h of hashes) {
      const b = await rpc.call('getblock', [h, true], idBlock);
      const txs = await rpc.batch(
        b.tx.map((id) => ({ method: 'getrawtransaction', params: [id, 1] })),
        tx,
      );
      for (const t of txs) if (t instanceof RpcError) throw t;
      out.push({ header: b, txs: txs as Tx[] });
    }
    return out;
  }

  return {
    network,
    // The live network carries its configured count (requiredConfirmations('live', network), ../networks).
    requiredConfirmations: network.confirmations,
    stats: rpc.stats,

    async head() {
      const info = await rpc.call(
        'getblockchaininfo',
        [],
        z.object({ blocks: z.number().int().nonnegative(), bestblockhash: hash }),
      );
      return headerOf(info.bestblockhash);
    },

    async block(height) {
      try {
        return await headerOf(await rpc.call('getblockhash', [height], hash));
      } catch (error) {
        if (error instanceof RpcError && error.code === HEIGHT_OUT_OF_RANGE) return null;
        throw error;
      }
    },

    async scan(from, to) {
      const calls: RpcCall[] = [];
      for (let h = from; h <= to; h++) calls.push({ method: 'getblockhash', params: [h] });
      const hashes = await rpc.batch(calls, hash);
      for (const h of hashes) if (h instanceof RpcError) throw h; // the tip moved down: retry next pass
      const blocks: BlockRef[] = [];
      const transfers: ChainTransfer[] = [];
      const spends: ChainSpend[] = [];
      for (const { header: h, txs } of await blocksByHash(hashes as string[])) {
        const ref = toRef(h);
        // The chain must not change under the scan: each block builds on the one before.
        const previous = blocks[blocks.length - 1];
        if (previous && ref.parentHash !== previous.hash)
          throw new RpcError(`${network.name}: the chain changed during the scan at height ${ref.height}`);
        blocks.push(ref);
        for (const t of txs) read(t, ref, ref.time, transfers, spends);
      }
      return { blocks, transfers, spends };
    },

    async transaction(txHash: string, hint: TransactionHint) {
      const { blocks: tipHeight } = await rpc.call(
        'getblockchaininfo',
        [],
        z.object({ blocks: z.number().int().nonnegative() }),
      );
      const found = async (params: unknown[]): Promise<FoundTransaction | null | undefined> => {
        let answer: unknown;
        try {
          answer = await rpc.call('getrawtransaction', params, z.unknown());
        } catch (error) {
          if (error instanceof RpcError && error.code === NO_SUCH_TRANSACTION) return undefined;
          throw error;
        }
        let fee: string | null = null;
        if (params.length === 2 && (answer as { blockhash?: unknown } | null)?.blockhash === undefined) {
          try {
            const entry = await rpc.call('getmempoolentry', [txHash], mempoolEntry);
            fee = entry.fees?.base ?? entry.fee ?? null;
          } catch (error) {
            // Mined between the two calls: it is looked for in its block below.
            if (!(error instanceof RpcError && error.code === NO_SUCH_TRANSACTION)) throw error;
            return undefined;
          }
        }
        return utxoFoundTransaction(network, answer, tipHeight, fee);
      };
      // The mempool (or any block on a node with -txindex), then the block an earlier look found.
      const direct = await found([txHash, true]);
      if (direct !== undefined) return direct;
      if (hint.blockHash) {
        const inBlock = await found([txHash, true, hint.blockHash]);
        if (inBlock) return inBlock;
      }
      // Without -txindex: block by block back from the tip, to the first older than `since`.
      const since = (hint.since?.getTime() ?? Date.now()) - BLOCK_TIME_SLACK_MS;
      for (let h = tipHeight; h >= 0 && h > tipHeight - TRANSACTION_SEARCH_BLOCKS; h--) {
        const blockHash = await rpc.call('getblockhash', [h], hash);
        const inBlock = await found([txHash, true, blockHash]);
        if (inBlock) return inBlock;
        if ((await headerOf(blockHash)).time.getTime() < since) break;
      }
      return null;
    },

    async mempool() {
      if (!cfg.mempool) return [];
      const pool = await rpc.call('getrawmempool', [true], z.record(z.string(), z.object({ time: z.number().int() })));
      const next = new Map<string, ChainTransfer[]>();
      const missing: string[] = [];
      for (const txid of Object.keys(pool)) {
        const known = mempoolSeen.get(txid);
        if (known) next.set(txid, known);
        else missing.push(txid);
      }
      for (let i = 0; i < missing.length; i += MEMPOOL_BATCH) {
        const ids = missing.slice(i, i + MEMPOOL_BATCH);
        const txs = await rpc.batch(
          ids.map((id) => ({ method: 'getrawtransaction', params: [id, 1] })),
          tx,
        );
        txs.forEach((t, j) => {
          if (t instanceof RpcError) return; // mined or evicted between the two calls
          const transfers: ChainTransfer[] = [];
          read(t, null, new Date(pool[ids[j]!]!.time * 1000), transfers);
          next.set(t.txid, transfers);
        });
      }
      mempoolSeen = next;
      return [...next.values()].flat();
    },
  };
}
