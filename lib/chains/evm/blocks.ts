import 'server-only';
/**
 * Blocks and native-coin payments, reshaped from viem's answers into BlockRef and ChainTransfer.
 * A native payment is a block transaction with a recipient and a value whose receipt has status 1:
 * a reverted transaction moved nothing. Every such transaction must have its receipt, of the block
 * scanned. Value moved by contracts (internal transfers) is not seen.
 */
import { BaseError, getAddress, type Hash, type PublicClient } from 'viem';
import { z } from 'zod';
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

/**
 * Which of a block's transactions succeeded: transaction hash (lower case) -> status 1, for every
 * one of `txs`. Throws when the node answers no receipt for one of them, or a receipt of another
 * block than `block` (a load-balanced provider whose backends disagree): a missing receipt read as
 * "failed" would scan the block clean and lose its payments for good, so the step fails and the
 * next pass asks again.
 */
export type ReceiptStatus = (block: BlockRef, txs: Hash[]) => Promise<Map<string, boolean>>;

const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 32-byte hash');
/** eth_getBlockReceipts: the fields read of each receipt; null for a block the node does not have. */
const blockReceiptsAnswer = z
  .array(z.object({ transactionHash: hash, blockHash: hash, status: z.enum(['0x0', '0x1']) }))
  .nullable();

/**
 * Reads receipt statuses with eth_getBlockReceipts (one call per block) where the node offers it,
 * else one receipt per transaction; the first block that needs receipts finds out which.
 */
export function receiptStatus(client: PublicClient): ReceiptStatus {
  let blockReceipts: boolean | undefined;
  return async (block, txs) => {
    if (txs.length === 0) return new Map();
    const receipts: { transactionHash: string; blockHash: string; succeeded: boolean }[] = [];
    let answered = false;
    if (blockReceipts !== false) {
      try {
        const answer = await client.request({
          method: 'eth_getBlockReceipts' as never,
          params: [`0x${block.height.toString(16)}`] as never,
        });
        const parsed = blockReceiptsAnswer.safeParse(answer);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new Error(
            `unexpected eth_getBlockReceipts answer at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
          );
        }
        if (parsed.data) {
          blockReceipts = true;
          answered = true;
          receipts.push(...parsed.data.map((r) => ({ ...r, succeeded: r.status === '0x1' })));
        } else if (blockReceipts === true) {
          throw new Error(`no receipts for block ${block.height}`);
        }
      } catch (error) {
        if (blockReceipts === true) throw error;
        blockReceipts = false; // not offered by this node: one receipt per value transfer
      }
    }
    if (!answered) {
      const each = await Promise.all(txs.map((hash) => client.getTransactionReceipt({ hash })));
      receipts.push(...each.map((r) => ({ ...r, succeeded: r.status === 'success' })));
    }
    const status = new Map<string, boolean>();
    for (const r of receipts) {
      if (r.blockHash.toLowerCase() !== block.hash.toLowerCase())
        throw new Error(`a receipt of block ${block.height} is of another block (${r.blockHash}) than the one scanned`);
      status.set(r.transactionHash.toLowerCase(), r.succeeded);
    }
    const missing = txs.filter((tx) => !status.has(tx.toLowerCase())).length;
    if (missing > 0)
      throw new Error(`the receipts of block ${block.height} lack ${missing} of its ${txs.length} paying transactions`);
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
    ref,
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
