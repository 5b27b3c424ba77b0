import 'server-only';
/**
 * Each network's effective policy per mode, in one place: the watcher, the payment page, make-order,
 * available-currencies and the advance balances all ask here, so they cannot disagree.
 *
 * - Enabled: test keys use every catalog network (the sandbox ledger serves them all); live keys
 *   use the networks whose node is configured (`<NETWORK>_RPC_URL` and `<NETWORK>_XPUB`; `RIPPLE_ADDRESS` on ripple).
 * - The network a mode uses is its catalog entry (lib/catalog, static and browser-safe) in test
 *   mode, and in live mode that entry as configured (./live applies `<NETWORK>_CONFIRMATIONS`,
 *   `_CHAIN_ID`, `_CHAIN` and `_TOKENS`). Its fields are the rest of the policy: token contracts
 *   (`currencies[].contract`), tag use (`usesTags`), default lifetime (`defaultLifetime`).
 * - Confirmations required: `requiredConfirmations`, which alone applies the sandbox's
 *   `SANDBOX_CONFIRMATIONS` in test mode.
 * - The wallet URI of a payment: `paymentUri` (./payment-uri, pure), given the network as the mode
 *   uses it, so a live order asks for the configured token contract on the configured chain id.
 */
import { findNetwork, NETWORKS, type Network } from '../catalog';
import { config } from '../config';
import { liveNetworks } from './live';
import type { Mode } from '../protocol';

export { paymentUri } from './payment-uri';

/** Networks usable with keys of `mode`, in catalog order. */
export function enabledNetworks(mode: Mode): readonly Network[] {
  return mode === 'test' ? NETWORKS : liveNetworks();
}

/**
 * The network `name` as keys of `mode` use it; undefined when that mode cannot use it. New orders'
 * currencies, amounts and lifetimes are resolved against this, not the bare catalog entry.
 */
export function networkFor(mode: Mode, name: string): Network | undefined {
  const lower = name.toLowerCase();
  return enabledNetworks(mode).find((n) => n.name === lower);
}

/**
 * The network of an existing order: as its mode uses it now, or the catalog's entry for a live
 * network that is no longer configured (its orders can still be shown).
 */
export function orderNetwork(mode: Mode, name: string): Network | undefined {
  return networkFor(mode, name) ?? findNetwork(name);
}

/**
 * Confirmations a payment on `network` (as `mode` uses it) needs before it counts, 1 meaning
 * included in a block: the sandbox's configured count in test mode, the network's own count live.
 */
export function requiredConfirmations(mode: Mode, network: Network): number {
  return mode === 'test' ? config().sandboxConfirmations : network.confirmations;
}

/**
 * Seconds between blocks on `network` as `mode` sees it, for estimates: the sandbox's pace in test
 * mode (`SANDBOX_BLOCK_SECONDS`; 0 when it mines only on demand, so no estimate), the catalog's live.
 */
export function blockSecondsOf(mode: Mode, network: Network): number {
  return mode === 'test' ? config().sandboxBlockMs / 1000 : network.blockSeconds;
}

/**
 * Confirmations of a transfer with the chain scanned to `tipHeight`: tip − block height + 1, none
 * while it is unmined or after it dropped out of the chain. The watcher credits by it and the
 * payment page shows it (k/n), so both count alike.
 */
export function confirmationsOf(
  transfer: { block_height: number | string | bigint | null; dropped: boolean },
  tipHeight: number,
): number {
  if (transfer.dropped || transfer.block_height === null) return 0;
  return Math.max(0, tipHeight - Number(transfer.block_height) + 1);
}
