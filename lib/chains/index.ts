import 'server-only';
/**
 * lib/chains as the rest of the gateway sees it: each network's policy per mode (./networks), the
 * ChainAdapter interface and the adapters of both modes (the sandbox ledger for test, the live
 * nodes for live).
 */
export {
  confirmationsOf,
  enabledNetworks,
  networkFor,
  orderNetwork,
  paymentUri,
  requiredConfirmations,
  blockSecondsOf,
} from './networks';
export { availableCurrencies } from './available';
export { deriveAddresses, derivationThreadReady } from './derivation-thread';
export { depositKeyDescriptor, parseDepositKey, takesOwnDepositKey } from './deposit-key';
export { isValidAddress, testAccountXpub, testKeyDescriptor, testTagAccountAddress } from './derivation';
export { childKeyBackend } from './child-key';
export { freshTag } from './tags';
export { isValidSolanaAddress } from './solana/address';
export { SIGNATURE_FEE_LAMPORTS } from './solana/transactions';
export { xrplBase58check } from './xrpl/address';
export { liveChainConfig } from './live';
export type { BlockRef, ChainAdapter, ChainSpend, ChainTransfer, FoundTransaction, TransactionHint } from './adapter';
export {
  liveAdapters,
  liveNodeStatus,
  solanaTokenProgram,
  solanaWalletTransaction,
  tronChainId,
  type LiveAdapter,
} from './live';
export type { NodeState, NodeStatus } from './failover';
export { broadcast, mine, normalizeTxHash, resetClock, sandboxAdapter, SANDBOX_CHANNEL, startMining } from './sandbox';
export { BlockNotAvailable, collectionNodeOf, type CollectionNode } from './utxo/collect';
export { collectionNodeFor } from './collection-node';
export { tronCollectionNode, type TronCollectionNode, type TronCollectionSteps } from './tron/collect';
export { evmCollectionNode, type EvmCollectionNode } from './evm';
export { xrplRefundNode, type XrplRefundNode } from './xrpl/refund-node';
