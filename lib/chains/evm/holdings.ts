import 'server-only';
/**
 * What an EVM collection plan is built from, read from the node at planning time
 * (docs/decisions/085): each deposit address's native and token balances and its transaction count
 * (the nonce its authorization must carry), the gas payer's count, the fee caps and the block gas
 * limit. Answers are parsed, never trusted to be numbers: a node answering nonsense is refused.
 */
import { parseAbiItem, type Address, type PublicClient } from 'viem';
import type { DepositHolding } from './transactions';

const BALANCE_OF = parseAbiItem('function balanceOf(address) view returns (uint256)');

/** `deposits` with their balances of the native coin and of each of `tokens`, and their nonces, at the latest block. */
export async function readHoldings(
  client: PublicClient,
  deposits: readonly { address: string; path: string; personal: boolean }[],
  tokens: readonly string[],
): Promise<DepositHolding[]> {
  return Promise.all(
    deposits.map(async (d) => {
      const address = d.address as Address;
      const [native, nonce, balances] = await Promise.all([
        client.getBalance({ address }),
        client.getTransactionCount({ address }),
        Promise.all(
          tokens.map((token) =>
            client.readContract({
              address: token as Address,
              abi: [BALANCE_OF],
              functionName: 'balanceOf',
              args: [address],
            }),
          ),
        ),
      ]);
      return {
        ...d,
        native,
        nonce,
        tokens: new Map(tokens.map((t, i) => [t.toLowerCase(), balances[i]!])),
      };
    }),
  );
}

/** The fee caps a plan's transactions carry: twice the latest base fee plus the node's suggested tip, as wallets do. */
export async function planFees(
  client: PublicClient,
): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; blockGasLimit: bigint }> {
  const block = await client.getBlock({ blockTag: 'latest' });
  const maxPriorityFeePerGas = await client.estimateMaxPriorityFeePerGas();
  const baseFee = block.baseFeePerGas ?? 0n;
  return { maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas, blockGasLimit: block.gasLimit };
}
