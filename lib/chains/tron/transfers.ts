import 'server-only';
/**
 * A Tron block's payments, reshaped into ChainTransfer:
 * - TRX: a TransferContract whose result (`ret[0].contractRet`) is SUCCESS, in sun.
 * - Tokens: `Transfer(address,address,uint256)` logs of a transaction whose receipt is SUCCESS
 *   (a REVERT or OUT_OF_ENERGY call credits nothing), emitted by a configured contract only: anyone
 *   can deploy a contract emitting the same event, so a log from any other contract never credits.
 *   The value is the log data's uint256, read as a bigint.
 */
import type { BlockRef, ChainTransfer } from '../adapter';
import { tronAddressFromHex } from './address';
import { trxTransfer, type Block, type TransactionInfo } from './answers';

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const succeeded = (tx: Block['transactions'][number]) => tx.ret[0]?.contractRet === 'SUCCESS';

/** A transfer of block `ref` between two accounts given in the node's hex form. */
function transferIn(
  ref: BlockRef,
  txHash: string,
  outputIndex: number,
  fromHex: string,
  toHex: string,
  currency: string,
  amount: bigint,
): ChainTransfer {
  return {
    txHash,
    outputIndex,
    from: tronAddressFromHex(fromHex),
    to: tronAddressFromHex(toHex),
    tag: null,
    currency,
    amount,
    blockHeight: ref.height,
    seenAt: ref.time,
  };
}

export function blockRef(block: Block): BlockRef {
  const raw = block.block_header.raw_data;
  return { height: raw.number, hash: block.blockID, parentHash: raw.parentHash, time: new Date(raw.timestamp) };
}

/**
 * The transactions of `block` that run contract code, by txID in lower case: only they can carry a
 * token Transfer log. A call (TriggerSmartContract), and a deployment (CreateSmartContract), whose
 * constructor may pay out tokens as it runs.
 */
export function contractCalls(block: Block): Set<string> {
  return new Set(
    block.transactions
      .filter((tx) =>
        tx.raw_data.contract.some((c) => c.type === 'TriggerSmartContract' || c.type === 'CreateSmartContract'),
      )
      .map((tx) => tx.txID.toLowerCase()),
  );
}

/** The successful TRX payments of `block` (seen as `ref`), in block order. */
export function trxTransfers(block: Block, ref: BlockRef, ticker: string, label: string): ChainTransfer[] {
  const transfers: ChainTransfer[] = [];
  for (const tx of block.transactions) {
    const contract = tx.raw_data.contract[0];
    if (contract?.type !== 'TransferContract' || !succeeded(tx)) continue;
    const parsed = trxTransfer.safeParse(contract.parameter.value);
    if (!parsed.success)
      throw new Error(`${label}: unexpected TransferContract in ${tx.txID}: ${parsed.error.issues[0]!.message}`);
    const { amount, owner_address, to_address } = parsed.data;
    if (amount <= 0n) continue;
    transfers.push(transferIn(ref, tx.txID, 0, owner_address, to_address, ticker, amount));
  }
  return transfers;
}

/**
 * The token payments among `infos` (the block's execution results), `contracts` mapping a
 * contract's 20-byte hash (lower-case hex) to its ticker. The output index is the log's position
 * in its transaction.
 */
export function tokenTransfers(
  infos: readonly TransactionInfo[],
  ref: BlockRef,
  contracts: ReadonlyMap<string, string>,
): ChainTransfer[] {
  const transfers: ChainTransfer[] = [];
  for (const info of infos) {
    if (info.result === 'FAILED' || info.receipt.result !== 'SUCCESS') continue;
    info.log.forEach((log, index) => {
      const emitter = log.address.toLowerCase().replace(/^41(?=[0-9a-f]{40}$)/, '');
      const ticker = contracts.get(emitter);
      const [topic, from, to] = log.topics.map((t) => t.toLowerCase());
      if (!ticker || topic !== TRANSFER_TOPIC || log.topics.length !== 3 || !from || !to) return;
      if (!/^0{24}[0-9a-f]{40}$/.test(from) || !/^0{24}[0-9a-f]{40}$/.test(to) || !/^[0-9a-fA-F]{64}$/.test(log.data))
        return;
      const amount = BigInt(`0x${log.data}`);
      if (amount === 0n) return;
      // What the call burned is its sender's (a collection plan's transfer burns a deposit address's TRX).
      transfers.push({
        ...transferIn(ref, info.id, index, from.slice(24), to.slice(24), ticker, amount),
        senderFee: BigInt(info.fee),
      });
    });
  }
  return transfers;
}
