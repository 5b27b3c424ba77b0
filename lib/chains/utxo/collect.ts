import 'server-only';
/**
 * What a collection plan asks of a Bitcoin-family node (lib/payouts): the full previous
 * transaction of each input, read from the block the watcher saw it in (`getrawtransaction txid
 * false blockhash` needs no `-txindex`), and the node's fee estimate.
 */
import { z } from 'zod';
import type { LiveChainConfig } from '../../config';
import { parseUnits } from '../../money';
import { JsonRpcClient, RpcError } from './rpc';

/** The node no longer has a block (pruned): the previous transaction cannot be had from it. */
export class BlockNotAvailable extends Error {
  override name = 'BlockNotAvailable';
  constructor(
    readonly txid: string,
    readonly blockHash: string,
    message = `the node no longer has block ${blockHash} (pruned?), which holds transaction ${txid}`,
  ) {
    super(message);
  }
}

export interface CollectionNode {
  /** The raw previous transactions (hex) by txid; throws BlockNotAvailable for a block the node pruned. */
  previousTransactions(wanted: readonly { txid: string; blockHash: string }[]): Promise<Map<string, string>>;
  /** The node's estimate for confirmation within `blocks`, in base units per virtual byte (rounded up); null without one. */
  feeRate(blocks: number): Promise<bigint | null>;
  /**
   * What the node's best chain says of each output (`gettxout`, mempool left out: the watcher
   * records spends from blocks): its value in base units while unspent, null once spent or unknown.
   */
  unspentOutputs(wanted: readonly { txid: string; vout: number }[], decimals: number): Promise<(bigint | null)[]>;
  /**
   * Hands a signed transaction to the node (`sendrawtransaction`, which checks every script before
   * it relays): taken (now, or before: already in a block), refused with the node's own reason,
   * or unanswered (unreachable, or an answer that is not one). Never the node's address.
   */
  broadcast(rawTx: string): Promise<Broadcast>;
}

export type Broadcast = { outcome: 'taken' } | { outcome: 'refused'; reason: string } | { outcome: 'unanswered' };

/** `sendrawtransaction`'s code for a transaction already in a block: taken before, not refused. */
const RPC_VERIFY_ALREADY_IN_CHAIN = -27;

/** Most outputs asked of the node in one batch. */
const OUTPUTS_PER_BATCH = 500;

const rawHex = z.string().regex(/^([0-9a-f]{2})+$/);

export function utxoCollectionNode(cfg: LiveChainConfig): CollectionNode {
  const rpc = new JsonRpcClient(cfg.rpc, `${cfg.network} node at ${cfg.rpc.url}`);
  return {
    async previousTransactions(wanted) {
      const distinct = [...new Map(wanted.map((w) => [w.txid, w])).values()];
      const answers = await rpc.batch(
        distinct.map((w) => ({ method: 'getrawtransaction', params: [w.txid, false, w.blockHash] })),
        rawHex,
      );
      const out = new Map<string, string>();
      answers.forEach((answer, i) => {
        const w = distinct[i]!;
        if (answer instanceof RpcError) {
          if (/not available|not found|pruned/i.test(answer.message)) throw new BlockNotAvailable(w.txid, w.blockHash);
          throw answer;
        }
        out.set(w.txid, answer);
      });
      return out;
    },
    async feeRate(blocks) {
      // feerate in coins per 1000 virtual bytes, 8 decimals; absent without data (regtest). A rate, not an
      // amount: toFixed(8) gives back the 8-decimal text the node wrote.
      const answer = await rpc.call(
        'estimatesmartfee',
        [blocks],
        z.object({ feerate: z.number().positive().optional() }),
      );
      if (answer.feerate === undefined) return null;
      // Per vB in base units: coins/kvB x 1e8 / 1000, rounded up; through text, never a float product.
      const [whole, fraction = ''] = answer.feerate.toFixed(8).split('.');
      const perKvB = BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, '0'));
      return (perKvB + 999n) / 1000n;
    },
    async unspentOutputs(wanted, decimals) {
      const out: (bigint | null)[] = [];
      for (let at = 0; at < wanted.length; at += OUTPUTS_PER_BATCH) {
        const answers = await rpc.batch(
          wanted
            .slice(at, at + OUTPUTS_PER_BATCH)
            .map((w) => ({ method: 'gettxout', params: [w.txid, w.vout, false] })),
          // The client reads every `value` as its text (./rpc.ts): no amount passes through a float.
          z.object({ value: z.string() }).nullable(),
        );
        for (const answer of answers) {
          if (answer instanceof RpcError) throw answer;
          if (answer === null) {
            out.push(null);
            continue;
          }
          const value = parseUnits(answer.value, decimals);
          if (!value.ok) throw new RpcError(`gettxout answered a value that is not an amount: ${answer.value}`);
          out.push(value.value);
        }
      }
      return out;
    },
    async broadcast(rawTx) {
      try {
        await rpc.call('sendrawtransaction', [rawTx], z.string());
        return { outcome: 'taken' };
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        if (error.nodeMessage === undefined) return { outcome: 'unanswered' };
        if (error.code === RPC_VERIFY_ALREADY_IN_CHAIN) return { outcome: 'taken' };
        return { outcome: 'refused', reason: error.nodeMessage };
      }
    },
  };
}

/** The collection node of a live UTXO network; undefined where the network is not live or not UTXO. */
export function collectionNodeOf(cfg: LiveChainConfig | undefined): CollectionNode | undefined {
  return cfg?.family === 'utxo' ? utxoCollectionNode(cfg) : undefined;
}
