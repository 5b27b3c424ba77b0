import 'server-only';
/**
 * lib/chains as the rest of the gateway sees it: each network's policy per mode (./networks), the
 * ChainAdapter interface and the adapters of both modes (the sandbox ledger for test, the live
 * nodes for live).
 */
export { enabledNetworks, networkFor, orderNetwork, paymentUri, requiredConfirmations, type Mode } from './networks';
export type { BlockRef, ChainAdapter, ChainSpend, ChainTransfer } from './adapter';
export { liveAdapters, type LiveAdapter } from './live';
export { sandboxAdapter, startMining } from './sandbox';
