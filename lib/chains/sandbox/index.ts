import 'server-only';
/**
 * The ChainAdapter of test mode: the sandbox ledger (./ledger) seen as a chain. Addresses come from
 * the real derivation code and payment URIs from the shared builder, so test mode shows exactly
 * what a live network would.
 */
import type { Network } from '../../catalog';
import type { Queryable } from '../../db';
import type { ChainAdapter } from '../adapter';
import { deriveAddress } from '../derivation';
import { paymentUri } from '../payment-uri';
import { blockAt, mempoolTransfers, scanRange, tip } from './ledger';

export {
  blockAt,
  broadcast,
  broadcastMany,
  drop,
  faucetAddress,
  mempoolTransfers,
  mine,
  resetClock,
  scanRange,
  startMining,
  tip,
  type BroadcastInput,
  type Broadcasted,
  type TransferInput,
} from './ledger';
export { isTxHash, normalizeTxHash } from './tx-hash';

export function sandboxAdapter(db: Queryable, network: Network): ChainAdapter {
  return {
    network,
    requiredConfirmations: network.confirmations,
    deriveAddress: (accountXpub, index) => deriveAddress(network, accountXpub, index),
    head: () => tip(db, network),
    block: (height) => blockAt(db, network, height),
    scan: (from, to) => scanRange(db, network, from, to),
    mempool: () => mempoolTransfers(db, network),
    paymentUri: (address, tag, currency, amount) => paymentUri(network, address, tag, currency, amount),
  };
}
