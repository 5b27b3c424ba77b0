import 'server-only';
/** The ChainAdapter of test mode: the sandbox ledger (./ledger) seen as a chain. */
import type { Network } from '../../catalog';
import type { Queryable } from '../../db';
import type { ChainAdapter } from '../adapter';
import { blockAt, ledgerTransaction, mempoolTransfers, scanRange, tip } from './ledger';

export {
  blockAt,
  broadcast,
  broadcastMany,
  drop,
  faucetAddress,
  mempoolTransfers,
  mine,
  resetClock,
  SANDBOX_CHANNEL,
  scanRange,
  startMining,
  tip,
  type BroadcastInput,
  type Broadcasted,
  type TransferInput,
} from './ledger';
export { isTxHash, normalizeTxHash } from './tx-hash';

/**
 * The watcher passes test mode's requirement (`requiredConfirmations('test', network)`, ../networks);
 * without one (tests, benches) it is the network's own count.
 */
export function sandboxAdapter(
  db: Queryable,
  network: Network,
  requiredConfirmations = network.confirmations,
): ChainAdapter {
  return {
    network,
    requiredConfirmations,
    // reset-clock takes the blocks dated ahead away (docs/decisions/016).
    truncates: true,
    head: () => tip(db, network),
    block: (height) => blockAt(db, network, height),
    scan: (from, to) => scanRange(db, network, from, to),
    mempool: () => mempoolTransfers(db, network),
    transaction: (txHash) => ledgerTransaction(db, network, txHash),
  };
}
