import 'server-only';
/**
 * The chain a Bitcoin-family plan is prepared against and submitted to: the sandbox ledger in test
 * mode (docs/decisions/097), the network's configured node live.
 */
import type { Network } from '../catalog';
import type { Queryable } from '../db';
import type { Mode } from '../protocol';
import { liveChainConfig } from './live';
import { sandboxCollectionNode } from './sandbox/collect';
import { collectionNodeOf, type CollectionNode } from './utxo/collect';

export function collectionNodeFor(db: Queryable, mode: Mode, network: Network): CollectionNode | undefined {
  return mode === 'test' ? sandboxCollectionNode(db, network) : collectionNodeOf(liveChainConfig(network.name));
}
