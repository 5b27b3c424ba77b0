import 'server-only';
/**
 * The one interface every chain family implements (lib/chains/<family>). The watcher
 * (lib/watcher) only ever talks to a chain through it; RPC shapes never leave the family's folder.
 * The sandbox ledger (lib/chains/sandbox) is the first implementation and the one of test mode.
 *
 * An adapter reads a chain; it does not derive addresses (the address pool does, on its own
 * thread: ../derivation-thread) nor build wallet URIs (a property of the network, not of a node:
 * ./networks).
 */
import type { Network } from '../catalog';

/** A block as the watcher needs it: where it is, what it builds on, and its time. */
export interface BlockRef {
  height: number;
  hash: string;
  parentHash: string;
  time: Date;
}

/**
 * A value transfer in the chain's own terms, reshaped: one UTXO output, one native transfer, one
 * token Transfer log. Only transfers that moved real value are reported (a reverted EVM receipt,
 * a failed Tron result, an XRP payment without tesSUCCESS are left out by the adapter).
 */
export interface ChainTransfer {
  txHash: string;
  /** Output index (UTXO), log index (tokens), 0 for a native EVM/XRP transfer. */
  outputIndex: number;
  /** The sender (first input's address for UTXO); null when the chain does not tell. */
  from: string | null;
  to: string;
  /** Destination tag on tag networks; null elsewhere. */
  tag: string | null;
  /** Ticker of the catalog currency (tokens only from the configured contracts). */
  currency: string;
  /** Base units. */
  amount: bigint;
  /** Null for a transfer still in the mempool. */
  blockHeight: number | null;
  /** When the chain first had it: block time, or mempool entry time when the node reports one. */
  seenAt: Date;
  /**
   * UTXO: the outputs its transaction spends, `txid:vout` each. A replacement of the transaction
   * (a fee bump, RBF) spends some of the same, which is how the watcher keeps its first sighting.
   */
  spentOutpoints?: readonly string[];
}

/**
 * An input that spends an earlier output (UTXO chains): how money leaving a deposit address is
 * seen when inputs do not name their address. Matched against the recorded deposits by outpoint.
 */
export interface ChainSpend {
  /** The spending transaction. */
  txHash: string;
  spentTxHash: string;
  spentOutputIndex: number;
  /** The spending transaction's first output address (where the money went), when it has one. */
  to: string | null;
  seenAt: Date;
}

export interface ChainAdapter {
  readonly network: Network;
  /** Confirmations a payment needs before it counts (1 = included in a block): the network's policy (./networks). */
  readonly requiredConfirmations: number;
  /** The current tip. */
  head(): Promise<BlockRef>;
  /** The block at `height` on the current best chain, or null above the tip. */
  block(height: number): Promise<BlockRef | null>;
  /**
   * Blocks `from`..`to` (inclusive, on the current best chain) and every transfer in them, in
   * block order. The watcher matches transfers against its addresses itself: an adapter never
   * needs to know which addresses are watched (so its cost does not grow with them).
   */
  scan(from: number, to: number): Promise<{ blocks: BlockRef[]; transfers: ChainTransfer[]; spends?: ChainSpend[] }>;
  /** Transfers waiting in the mempool (empty where the chain has none to show). */
  mempool(): Promise<ChainTransfer[]>;
  /**
   * Where the node announces new blocks (EVM newHeads over WebSocket): calls `onBlock` at each,
   * so that the watcher reads it at once rather than at its next poll. Answers the unsubscribe.
   * Absent where the node offers nothing; polling goes on either way.
   */
  subscribeNewBlocks?(onBlock: () => void): () => void;
}
