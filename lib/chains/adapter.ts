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
  /**
   * With `txHash`, what names the transfer, and a reorganisation that mines the transaction again
   * elsewhere does not change it: the output's index (UTXO); for EVM tokens the log's position,
   * from 1, among the transaction's Transfer logs of the configured contracts (docs/decisions/046);
   * for Tron tokens the log's position in its transaction; 0 for a native EVM, Tron or XRP transfer.
   */
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
  /** The hash of its block, where the adapter reads blocks (UTXO: a collection fetches the previous transaction from it). */
  blockHash?: string;
  /**
   * UTXO: the outputs its transaction spends, `txid:vout` each. A replacement of the transaction
   * (a fee bump, RBF) spends some of the same, which is how the watcher keeps its first sighting.
   */
  spentOutpoints?: readonly string[];
  /**
   * Tron tokens: what the transaction burned from its sender's TRX, sun (TransactionInfo `fee`, the
   * total of its energy, bandwidth and account creation fees); left out elsewhere.
   */
  senderFee?: bigint;
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
  /** The block it is in (spends are read from scanned blocks). */
  blockHeight?: number;
}

/** One transaction as `ChainAdapter.transaction` finds it by its id. */
export interface FoundTransaction {
  /**
   * Every value it moved, to any address, as `scan` reshapes them (outputs, the native transfer,
   * the configured tokens' Transfer logs, an XRP payment's delivered amount); none when it failed.
   */
  transfers: ChainTransfer[];
  /** 0 while it waits in the mempool; in a block, that block and those above it to the node's tip. */
  confirmations: number;
  /** The hash of its block; null in the mempool. */
  blockHash: string | null;
  /**
   * What the transaction paid for itself, in the network's native coin, when the chain tells
   * (EVM gas used at its price, Tron's fee, XRP's Fee, a UTXO mempool entry's fee); null otherwise.
   */
  fee: bigint | null;
}

/**
 * Where to look for a transaction by id (the Bitcoin family without -txindex finds a mined one only
 * in a block it is told): its block when known from an earlier look, else blocks back from the tip
 * until one older than `since`.
 */
export interface TransactionHint {
  blockHash?: string;
  since?: Date;
}

export interface ChainAdapter {
  readonly network: Network;
  /** Confirmations a payment needs before it counts (1 = included in a block): the network's policy (./networks). */
  readonly requiredConfirmations: number;
  /**
   * Set where the adapter is the chain itself and blocks can be taken away with none in their
   * place (the sandbox ledger's reset-clock): its head below the watcher's cursor is then a
   * reorganisation. Elsewhere such a head is a node behind the chain, which the watcher waits for.
   */
  readonly truncates?: true;
  /** The current tip. */
  head(): Promise<BlockRef>;
  /**
   * The block at `height` on the current best chain, or null where the node has no block there
   * (above its tip): "no block at h" is not "another block at h", and only the second is a fork.
   */
  block(height: number): Promise<BlockRef | null>;
  /**
   * Blocks `from`..`to` (inclusive, on the current best chain) and every transfer in them, in
   * block order. The watcher matches transfers against its addresses itself: an adapter never
   * needs to know which addresses are watched (so its cost does not grow with them).
   */
  scan(
    from: number,
    to: number,
  ): Promise<{
    blocks: BlockRef[];
    transfers: ChainTransfer[];
    spends?: ChainSpend[];
    /**
     * Where payments are read by account (Solana): the transfers of the transactions a receiving
     * wallet sent (paid the fee of), every value they moved to anyone, tagged with the reference
     * they carry. Never payments: they only move refund plans (docs/decisions/111).
     */
    outgoing?: ChainTransfer[];
  }>;
  /**
   * Where the adapter reads payments by receiving account (Solana's wallets; the XRP Ledger's
   * accounts, whose ledgers are read whole but whose transactions are kept by destination), the
   * receiving accounts to read besides the configured one: the merchants' own (docs/decisions/096,
   * 114) and the earlier ones open orders were issued to (decision 100). The watcher names them,
   * from the database, before each step. Absent where every address of a block is matched.
   */
  watchAccounts?(accounts: readonly string[]): void;
  /** Transfers waiting in the mempool (empty where the chain has none to show). */
  mempool(): Promise<ChainTransfer[]>;
  /**
   * The transaction `txHash` (the network's canonical spelling) on the node's best chain or in its
   * mempool, or null when the node does not know it (docs/decisions/092: a refund sent by hand is
   * verified with it). Absent where the family cannot look one up yet.
   */
  transaction?(txHash: string, hint: TransactionHint): Promise<FoundTransaction | null>;
  /**
   * One watcher step's view of the chain, where the adapter has several nodes (./failover): every
   * read of the view (mempool, head, blocks, scan) goes to one node, whose head is at or above
   * `floor` (the watcher's cursor) when one node's is. Reads of one step that mixed nodes would mix
   * their chains: a mempool and a head of different nodes, or a node behind the cursor answering
   * "no block" where the watcher has scanned one. Absent on an adapter over one node.
   */
  pin?(floor: number): Promise<ChainAdapter>;
  /**
   * Where the node announces new blocks (EVM newHeads over WebSocket): calls `onBlock` at each,
   * so that the watcher reads it at once rather than at its next poll. Answers the unsubscribe.
   * Absent where the node offers nothing; polling goes on either way.
   */
  subscribeNewBlocks?(onBlock: () => void): () => void;
}
