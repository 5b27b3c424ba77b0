/**
 * An EVM refund's one transaction (docs/decisions/112): from the merchant's treasury, the refund's
 * coin to the address the payer confirmed, or a token's `transfer(destination, amount)` to its
 * contract. Built by the gateway (`evmRefundTransaction`), checked and signed by the signer
 * (`evmRefundTransactionRefusals`, `signEvmRefundTransaction`), and checked again by the gateway
 * when the signed transaction comes back (`checkEvmRefundSubmission`): the same rules on both
 * sides, in one place.
 */
import {
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  keccak256,
  parseAbiItem,
  parseTransaction,
  recoverTransactionAddress,
  toHex,
  type Hex,
  type TransactionSerializedEIP1559,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { HDKey } from '@scure/bip32';
import type { EvmRefundTransaction } from './types';
import { GAS } from './plan';
import { feeMarketFields } from './signing';

const ERC20_TRANSFER = parseAbiItem('function transfer(address to, uint256 amount) returns (bool)');
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** What a refund transaction must do: pay `amount` base units of the coin (token null) or of `token` to `destination`. */
export interface EvmRefundIntent {
  chainId: number;
  treasury: string;
  destination: string;
  token: string | null;
  amount: bigint;
}

/**
 * The refund's unsigned transaction at the treasury's `nonce` and the node's fee caps. Gas: 21,000
 * for the coin to an account without code; the node's estimate otherwise (a contract wallet, a
 * token's transfer), as `estimate` answers it.
 */
export function evmRefundTransaction(
  intent: EvmRefundIntent,
  nonce: number,
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  gas: bigint,
): EvmRefundTransaction {
  const destination = getAddress(intent.destination);
  return {
    from: getAddress(intent.treasury),
    chainId: intent.chainId,
    nonce,
    to: intent.token ? getAddress(intent.token) : destination,
    value: (intent.token ? 0n : intent.amount).toString(),
    data: intent.token ? encodeFunctionData({ abi: [ERC20_TRANSFER], args: [destination, intent.amount] }) : '0x',
    gas: gas.toString(),
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
  };
}

/** The least gas a refund transaction may carry: a bare coin transfer's. */
export const REFUND_MIN_GAS = GAS.transaction;

/**
 * Why `tx` is not exactly the transaction of `intent`: another chain, sender, recipient, token,
 * amount, calldata beyond the one transfer, a priority fee above its cap, less gas than a transfer
 * takes. Every reason, empty when it is.
 */
export function evmRefundTransactionRefusals(tx: EvmRefundTransaction, intent: EvmRefundIntent): string[] {
  const reasons: string[] = [];
  if (tx.chainId !== intent.chainId)
    reasons.push(`the transaction is for chain id ${tx.chainId}, not ${intent.chainId}`);
  if (!same(tx.from, intent.treasury))
    reasons.push(`the transaction is sent by ${tx.from}, not the treasury ${intent.treasury}`);
  if (BigInt(tx.maxPriorityFeePerGas) > BigInt(tx.maxFeePerGas)) reasons.push('its priority fee is above its fee cap');
  if (BigInt(tx.gas) < REFUND_MIN_GAS) reasons.push(`its gas ${tx.gas} is below a transfer's ${REFUND_MIN_GAS}`);
  if (!intent.token) {
    if (!same(tx.to, intent.destination))
      reasons.push(`the transaction pays ${tx.to}, not ${intent.destination}, the address the payer confirmed`);
    if (BigInt(tx.value) !== intent.amount)
      reasons.push(`the transaction pays ${tx.value} base units, not the refund's ${intent.amount}`);
    if (tx.data !== '0x') reasons.push('the transaction carries calldata; a coin refund carries none');
    return reasons;
  }
  if (!same(tx.to, intent.token)) return [...reasons, `the transaction calls ${tx.to}, not the token ${intent.token}`];
  if (BigInt(tx.value) !== 0n) reasons.push('the transaction sends the coin to the token contract');
  let call;
  try {
    call = decodeFunctionData({ abi: [ERC20_TRANSFER], data: tx.data as Hex });
  } catch {
    return [...reasons, `the transaction calls selector ${tx.data.slice(0, 10)} on the token, not transfer`];
  }
  const [to, amount] = call.args;
  if (!same(to, intent.destination))
    reasons.push(
      `the transaction transfers the token to ${to}, not ${intent.destination}, the address the payer confirmed`,
    );
  if (amount !== intent.amount)
    reasons.push(`the transaction transfers ${amount} base units, not the refund's ${intent.amount}`);
  if (encodeFunctionData({ abi: [ERC20_TRANSFER], args: [to, amount] }) !== tx.data.toLowerCase())
    reasons.push('the transaction carries calldata beyond transfer(destination, amount)');
  return reasons;
}

/** The refund transaction signed by the treasury's key: its hash (lower case, 0x) and its raw form (hex, no 0x). */
export async function signEvmRefundTransaction(
  tx: EvmRefundTransaction,
  treasuryKey: HDKey,
): Promise<{ hash: string; raw: string }> {
  const account = privateKeyToAccount(toHex(treasuryKey.privateKey!));
  const raw = await account.signTransaction({ ...feeMarketFields(tx), type: 'eip1559' });
  return { hash: keccak256(raw).toLowerCase(), raw: raw.slice(2) };
}

/** A signed transaction handed back that is not the plan's own. */
export class EvmSubmissionRefusal extends Error {
  override name = 'EvmSubmissionRefusal';
}

/**
 * Takes a signed transaction (hex, no 0x) only when it is the plan's `tx` field for field, type 2,
 * signed by its sender: its hash (0x, lower case) and the raw form to broadcast (0x).
 */
export async function checkEvmRefundSubmission(
  tx: EvmRefundTransaction,
  rawHex: string,
): Promise<{ txid: string; raw: Hex }> {
  const raw = `0x${rawHex}` as Hex;
  let parsed;
  let signer;
  try {
    parsed = parseTransaction(raw);
    signer = await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerializedEIP1559 });
  } catch {
    throw new EvmSubmissionRefusal('the transaction is not a signed EVM transaction');
  }
  const differs: string[] = [];
  if (parsed.type !== 'eip1559') differs.push(`type ${parsed.type}`);
  if (parsed.chainId !== tx.chainId) differs.push('chain id');
  if (parsed.nonce !== tx.nonce) differs.push('nonce');
  if (!parsed.to || !same(parsed.to, tx.to)) differs.push('recipient');
  if ((parsed.value ?? 0n) !== BigInt(tx.value)) differs.push('value');
  if ((parsed.data ?? '0x').toLowerCase() !== tx.data.toLowerCase()) differs.push('calldata');
  if (parsed.gas !== BigInt(tx.gas)) differs.push('gas');
  if (
    parsed.maxFeePerGas !== BigInt(tx.maxFeePerGas) ||
    parsed.maxPriorityFeePerGas !== BigInt(tx.maxPriorityFeePerGas)
  )
    differs.push('fees');
  if ((parsed.authorizationList?.length ?? 0) > 0 || (parsed.accessList?.length ?? 0) > 0) differs.push('extra lists');
  if (!same(signer, tx.from)) differs.push(`signer (${signer})`);
  if (differs.length > 0)
    throw new EvmSubmissionRefusal(`the transaction is not the plan's: its ${differs.join(', ')} differ`);
  return { txid: keccak256(raw).toLowerCase(), raw };
}
