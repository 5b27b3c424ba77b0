import 'server-only';
import { liveNetworks } from '../chains/live';
import { NETWORKS, type Network } from './index';

export type Mode = 'test' | 'live';

/**
 * Networks usable with keys of `mode`. Test keys use the sandbox ledger, which serves every
 * catalog network. Live keys use the networks whose node is configured (`<NETWORK>_RPC_URL` and
 * `<NETWORK>_XPUB`, lib/config/chains.ts), as configured: their confirmations, chain id and token
 * contracts may differ from the catalog's.
 */
export function enabledNetworks(mode: Mode): readonly Network[] {
  return mode === 'test' ? NETWORKS : liveNetworks();
}

/**
 * The network `name` as keys of `mode` use it (a live network carries its configured token
 * contracts and confirmations); undefined when that mode cannot use it. Payment URIs and amounts
 * of an order should be built from this, not from the bare catalog entry.
 */
export function networkFor(mode: Mode, name: string): Network | undefined {
  const lower = name.toLowerCase();
  return enabledNetworks(mode).find((n) => n.name === lower);
}
