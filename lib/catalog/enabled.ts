import 'server-only';
import { NETWORKS, type Network } from './index';

export type Mode = 'test' | 'live';

/**
 * Networks usable with keys of `mode`. Test keys use the sandbox ledger, which serves every
 * catalog network. Live keys need a configured chain adapter (RPC + extended public key); none
 * is configurable yet, so live keys have no network until the live adapters land.
 */
export function enabledNetworks(mode: Mode): readonly Network[] {
  return mode === 'test' ? NETWORKS : [];
}
