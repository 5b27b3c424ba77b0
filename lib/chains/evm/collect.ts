import 'server-only';
/**
 * What an EVM collection plan asks of the node (lib/payouts, docs/decisions/085, 093): each deposit
 * address's balances and nonce, the gas payer's nonce, the fee caps and the block gas limit, read
 * when the plan is prepared (./holdings), through the same connection as the watcher's (./node),
 * its failures named by the node's label.
 */
import type { Address, Hash, Hex } from 'viem';
import type { Network } from '../../catalog';
import type { LiveChainConfig } from '../../config';
import type { DepositHolding } from './transactions';
import { planFees, readHoldings } from './holdings';
import { evmNode } from './node';

export interface EvmCollectionNode {
  holdings(
    deposits: readonly { address: string; path: string; personal: boolean }[],
    tokens: readonly string[],
  ): Promise<DepositHolding[]>;
  fees(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; blockGasLimit: bigint }>;
  /** An account's transaction count at the latest block (the nonce its next transaction carries). */
  nonce(address: string): Promise<number>;
  /** An account's transaction count as of block `height`: the nonces it had used by then (the watcher's staleness check). */
  nonceAt(address: string, height: number): Promise<number>;
  /** An account's native balance as of block `height` (what a 7702 sweep left it, docs/decisions/122). */
  balanceAt(address: string, height: number): Promise<bigint>;
  /** The gas a call would use now (`eth_estimateGas`): a refund's transfer to a contract wallet or of a token. */
  estimateGas(call: { from: string; to: string; value: bigint; data: string }): Promise<bigint>;
  /** Where a transaction was mined and whether it succeeded; null while the node has no receipt (docs/decisions/112). */
  receipt(hash: string): Promise<{ height: number; success: boolean } | null>;
  /** Hands a signed transaction to the node (`eth_sendRawTransaction`); throws with the node's refusal. */
  sendRaw(raw: string): Promise<string>;
}

export function evmCollectionNode(network: Network, cfg: LiveChainConfig): EvmCollectionNode {
  const node = evmNode(network, cfg);
  return {
    holdings: (deposits, tokens) =>
      node.guard('reading deposit balances', async () => {
        await node.checkChain();
        return readHoldings(node.client, deposits, tokens);
      }),
    fees: () => node.guard('reading fees', () => planFees(node.client)),
    nonce: (address) =>
      node.guard('reading a nonce', () => node.client.getTransactionCount({ address: address as Address })),
    nonceAt: (address, height) =>
      node.guard('reading a nonce', () =>
        node.client.getTransactionCount({ address: address as Address, blockNumber: BigInt(height) }),
      ),
    balanceAt: (address, height) =>
      node.guard('reading a balance', () =>
        node.client.getBalance({ address: address as Address, blockNumber: BigInt(height) }),
      ),
    estimateGas: (call) =>
      node.guard('estimating gas', () =>
        node.client.estimateGas({
          account: call.from as Address,
          to: call.to as Address,
          value: call.value,
          data: call.data as Hex,
        }),
      ),
    receipt: (hash) =>
      node.guard('reading a receipt', async () => {
        try {
          const receipt = await node.client.getTransactionReceipt({ hash: hash as Hash });
          return { height: Number(receipt.blockNumber), success: receipt.status === 'success' };
        } catch (error) {
          if ((error as Error)?.name === 'TransactionReceiptNotFoundError') return null;
          throw error;
        }
      }),
    // Not guarded: the node's refusal (nonce too low, underpriced) is the answer, not a failure of the node.
    sendRaw: (raw) => node.client.sendRawTransaction({ serializedTransaction: raw as Hex }),
  };
}
