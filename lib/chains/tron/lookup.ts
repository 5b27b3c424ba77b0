import 'server-only';
/**
 * One Tron transaction by its id, as a found transaction (docs/decisions/092):
 * /wallet/gettransactioninfobyid tells whether and in which block it is, its fee, its result and
 * its logs (`{}` until it is in a block: then it is not found); the block
 * (/wallet/getblock, with its transactions) holds the transaction's contract, its TRX payment.
 * Transfers are read as the scan reads them (./transfers): a TRX TransferContract that succeeded,
 * the configured tokens' Transfer logs of a call whose receipt is SUCCESS.
 */
import type { ChainTransfer, FoundTransaction } from '../adapter';
import type { Block, TransactionInfo } from './answers';
import { blockRef, tokenTransfers, trxTransfers } from './transfers';

export function tronFoundTransaction(
  info: TransactionInfo,
  block: Block,
  headHeight: number,
  native: string,
  contracts: ReadonlyMap<string, string>,
  label: string,
): FoundTransaction | null {
  const ref = blockRef(block);
  const id = info.id.toLowerCase();
  const tx = block.transactions.find((t) => t.txID.toLowerCase() === id);
  if (!tx || ref.height !== info.blockNumber) return null;
  const transfers: ChainTransfer[] = [
    ...trxTransfers({ ...block, transactions: [tx] }, ref, native, label),
    ...tokenTransfers([info], ref, contracts),
  ];
  return {
    transfers,
    confirmations: Math.max(0, headHeight - ref.height + 1),
    blockHash: ref.hash,
    fee: BigInt(info.fee),
  };
}
