import 'server-only';
/**
 * One EVM transaction by its hash, as a found transaction (docs/decisions/092): its receipt
 * (eth_getTransactionReceipt) says whether and where it was mined and holds its logs, the
 * transaction (eth_getTransactionByHash) its native value and recipient. A transaction without a
 * receipt (pending, or unknown) is not found: EVM payments are seen at their block (./index). A
 * reverted one moved nothing. Token transfers are the Transfer logs of the configured contracts,
 * numbered as the scan numbers them (./tokens); the fee is gas used at its effective price.
 */
import { getAddress, type Hash, type PublicClient, type Transaction, type TransactionReceipt } from 'viem';
import type { BlockRef, ChainTransfer, FoundTransaction } from '../adapter';
import { blockRef } from './blocks';
import { tokenTransfers, TRANSFER_TOPIC } from './tokens';

/** What the node answered for one transaction, in viem's shapes. */
export interface EvmAnswers {
  transaction: Transaction;
  receipt: TransactionReceipt;
  /** The receipt's block. */
  block: BlockRef;
  /** The height the watcher reads to (the node's tip less its head lag). */
  headHeight: number;
}

/** The found transaction of `answers`, the configured `contracts` (lower case -> ticker), `native` the coin. */
export function evmFoundTransaction(
  answers: EvmAnswers,
  native: string,
  contracts: ReadonlyMap<string, string>,
  label: string,
): FoundTransaction | null {
  const { transaction, receipt, block } = answers;
  if (receipt.blockHash.toLowerCase() !== block.hash.toLowerCase()) return null;
  const transfers: ChainTransfer[] = [];
  if (receipt.status === 'success') {
    if (transaction.to && transaction.value > 0n) {
      transfers.push({
        txHash: receipt.transactionHash,
        outputIndex: 0,
        from: getAddress(transaction.from),
        to: getAddress(transaction.to),
        tag: null,
        currency: native,
        amount: transaction.value,
        blockHeight: block.height,
        seenAt: block.time,
      });
    }
    const logs = receipt.logs.filter(
      (log) =>
        contracts.has(log.address.toLowerCase()) &&
        log.topics.length === 3 &&
        log.topics[0]?.toLowerCase() === TRANSFER_TOPIC,
    ) as unknown as Parameters<typeof tokenTransfers>[0];
    transfers.push(...tokenTransfers(logs, contracts, new Map([[block.height, block]]), label));
  }
  return {
    transfers,
    confirmations: Math.max(0, answers.headHeight - block.height + 1),
    blockHash: block.hash,
    fee: receipt.gasUsed * receipt.effectiveGasPrice,
  };
}

/** The node's answers for `hash`, or null when it has no receipt for it. */
export async function evmAnswers(client: PublicClient, hash: Hash, headLag: number): Promise<EvmAnswers | null> {
  let receipt: TransactionReceipt;
  try {
    receipt = await client.getTransactionReceipt({ hash });
  } catch (error) {
    if ((error as Error)?.name === 'TransactionReceiptNotFoundError') return null;
    throw error;
  }
  const [transaction, block, tip] = await Promise.all([
    client.getTransaction({ hash }),
    client.getBlock({ blockHash: receipt.blockHash }),
    client.getBlockNumber({ cacheTime: 0 }),
  ]);
  return { transaction, receipt, block: blockRef(block), headHeight: Number(tip) - headLag };
}
