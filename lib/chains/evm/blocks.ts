import 'server-only';
/**
 * Blocks and native-coin payments, reshaped from viem's answers into BlockRef and ChainTransfer.
 * A native payment is a block transaction with a recipient and a value whose receipt has status 1:
 * a reverted transaction moved nothing. Value moved by contracts (internal transfers) is not seen.
 */
import { BaseError, getAddress, type Hash, type PublicClient } from 'viem';
import type { BlockRef, ChainTransfer } from '../adapter';

export function blockRef(b: {
  number: bigint | null;
  hash: Hash | null;
  parentHash: Hash;
  timestamp: bigint;
}): BlockRef {
  return {
    height: Number(b.number),
    hash: b.hash!,
    parentHash: b.parentHash,
    time: new Date(Number(b.timestamp) * 1000),
  };
}

/** The block at `height`, or null above the node's head. */
export async function blockAt(client: PublicClient, height: number): Promise<BlockRef | null> {
  try {
    return blockRef(await client.getBlock({ blockNumber: BigInt(height) }));
  } catch (error) {
    if (error instanceof BaseError && error.name === 'BlockNotFoundError') return null;
    throw error;
  }
}

/** Blocks `from`..`to` with their transactions, asked for together (one batch). */
export function fullBlocks(client: PublicClient, from: number, to: number) {
  const heights = Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));
  return Promise.all(heights.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })));
}

export type FullBlock = Awaited<ReturnType<typeof fullBlocks>>[number];

/** Which of a block's transactions succeeded: transaction hash (lower case) -> status 1. */
export type ReceiptStatus = (blockNumber: bigint, txs: Hash[]) => Promise<Map<string, boolean>>;

/**
 * Reads receipt statuses with eth_getBlockReceipts (one call per block) where the node offers it,
 * else one receipt per transaction; the first block that needs receipts finds out which.
 */
export function receiptStatus(client: PublicClient): ReceiptStatus {
  let blockReceipts: boolean | undefined;
  return async (blockNumber, txs) => {
    const status = new Map<string, boolean>();
    if (txs.length === 0) return status;
    if (blockReceipts !== false) {
      try {
        const receipts = (await client.request({
          method: 'eth_getBlockReceipts' as never,
          params: [`0x${blockNumber.toString(16)}`] as never,
        })) as { transactionHash: string; status: string }[] | null;
        if (receipts) {
          blockReceipts = true;
          for (const r of receipts) status.set(r.transactionHash.toLowerCase(), r.status === '0x1');
          return status;
        }
      } catch (error) {
        if (blockReceipts === true) throw error;
        blockReceipts = false; // not offered by this node: one receipt per value transfer
      }
    }
    const receipts = await Promise.all(txs.map((hash) => client.getTransactionReceipt({ hash })));
    for (const r of receipts) status.set(r.transactionHash.toLowerCase(), r.status === 'success');
    return status;
  };
}

/** The native-coin (`ticker`) payments of `block` (seen as `ref`) whose transaction succeeded, in block order. */
export async function nativeTransfers(
  block: FullBlock,
  ref: BlockRef,
  ticker: string,
  succeeded: ReceiptStatus,
): Promise<ChainTransfer[]> {
  const paying = block.transactions.filter((t) => t.to && t.value > 0n);
  const ok = await succeeded(
    block.number!,
    paying.map((t) => t.hash),
  );
  return paying
    .filter((t) => ok.get(t.hash.toLowerCase()) === true)
    .map((t) => ({
      txHash: t.hash,
      outputIndex: 0,
      from: getAddress(t.from),
      to: getAddress(t.to!),
      tag: null,
      currency: ticker,
      amount: t.value,
      blockHeight: ref.height,
      seenAt: ref.time,
    }));
}
