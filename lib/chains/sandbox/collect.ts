import 'server-only';
/**
 * What a test-mode collection or refund plan asks of the chain (lib/payouts), answered by the
 * sandbox ledger as a Bitcoin-family node answers a live one (../utxo/collect.ts,
 * docs/decisions/097): the previous transactions it kept, a fixed fee rate, unspent outputs, and
 * a signed transaction taken into its mempool after its checks.
 */
import type { Network } from '../../catalog';
import type { Queryable } from '../../db';
import { BlockNotAvailable, type CollectionNode } from '../utxo/collect';
import { rawTransactions, takeTransaction, unspentAmounts } from './ledger';

/** The sandbox has no fee market: 1 base unit per virtual byte, Bitcoin Core's minimum relay fee. */
export const SANDBOX_FEE_RATE = 1n;

export function sandboxCollectionNode(db: Queryable, network: Network): CollectionNode {
  return {
    async previousTransactions(wanted) {
      const found = await rawTransactions(db, network, [...new Set(wanted.map((w) => w.txid))]);
      const missing = wanted.find((w) => !found.has(w.txid));
      if (missing)
        throw new BlockNotAvailable(
          missing.txid,
          '',
          `the sandbox kept no transaction ${missing.txid} (a payment made before test-mode plans)`,
        );
      return found;
    },
    feeRate: async () => SANDBOX_FEE_RATE,
    unspentOutputs: (wanted) => unspentAmounts(db, network, wanted),
    broadcast: (rawTx) => takeTransaction(db, network, rawTx),
  };
}
