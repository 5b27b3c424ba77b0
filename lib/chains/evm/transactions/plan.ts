/**
 * Building an EVM collection plan (docs/decisions/085): pure, from what the gateway read of the
 * node (each deposit address's balances and nonce, the gas payer's nonce, the fee caps, the block
 * gas limit). No key is involved: the plan is a list of unsigned transactions and authorization
 * requests, each naming the path of the key that signs it, for the signer on the merchant's machine.
 *
 * Pool addresses are swept in batches: one type-4 transaction from the gas payer per batch,
 * carrying each address's authorization to the sweeper and calling `sweepMany`, then one clearing
 * each address's delegation (an authorization to address 0), so that a plain 21,000-gas transfer to
 * it succeeds again when the pool hands it out. A batch's gas stays within the network's cap per
 * transaction (EIP-7825) and the block gas limit. Personal addresses (reused by their user) are
 * never delegated: they, and every address when the merchant asks for it, take the fallback, gas
 * funded by the gas payer, then a transfer per token and one of the native coin signed by the
 * deposit key.
 */
import { encodeFunctionData, getAddress, parseAbiItem, zeroAddress } from 'viem';
import type { EvmAuthorizationRequest, EvmCollectionPlan, EvmPlanItem, EvmUnsignedTransaction } from './types';
import { SWEEPER_ABI, sweeperAddress } from './sweeper';

/** EIP-7825's cap on one transaction's gas, on Ethereum since Fusaka; the default where a network names none. */
export const EIP_7825_TX_GAS_CAP = 16_777_216n;

/**
 * Gas bounds the plan reserves, each above what it was measured to use on anvil (Osaka) with the
 * test token (`npm run bench:collect`, docs/collections.md): a bound too low would revert a batch,
 * one too high only leaves gas unspent (the gas limit is not what is paid).
 */
export const GAS = {
  /** Every transaction. */
  transaction: 21_000n,
  /** `sweepMany` itself: its call, the two arrays' calldata header, the loop. */
  sweepBatch: 10_000n,
  /** EIP-7702 PER_EMPTY_ACCOUNT_COST, charged for each authorization up front. */
  authorization: 25_000n,
  /** Per account in `sweepMany`: the call into the delegated account and its 32 bytes of calldata. */
  sweepAccount: 12_000n,
  /** Per account and token in the batch: `balanceOf`, and the token's 32 bytes of calldata. */
  tokenRead: 8_000n,
  /** Per account and token it holds: the token's `transfer` to the treasury. */
  tokenMove: 60_000n,
  /** Per account holding the native coin: the call paying it to the treasury (an empty treasury costs 25,000 more). */
  nativeMove: 40_000n,
  /** The gas limit of a deposit key's token `transfer` (fallback). */
  tokenTransfer: 100_000n,
} as const;

const ERC20_TRANSFER = parseAbiItem('function transfer(address to, uint256 amount) returns (bool)');

export interface DepositHolding {
  address: string;
  /** Its path from the master key, `m/44'/60'/0'/0/<index>`. */
  path: string;
  /** A personal address is never delegated. */
  personal: boolean;
  /** The address's transaction count (`eth_getTransactionCount`, latest). */
  nonce: number;
  native: bigint;
  /** Token contract (any case) -> balance in the token's base units. */
  tokens: ReadonlyMap<string, bigint>;
  /**
   * Only the gas a fund-then-transfer left (docs/decisions/113): its coin goes back by its own
   * 21,000-gas transfer when worth it (`leftGasReturn`), never by a sweep, whose authorization and
   * clear cost more than that transfer.
   */
  gasLeft?: boolean;
}

/** What a deposit address's own 21,000-gas transfer of its coin costs at most, at the plan's fee cap. */
export function ownTransferFee(maxFeePerGas: bigint): bigint {
  return GAS.transaction * maxFeePerGas;
}

/**
 * What the coin left on a deposit address sends back to the treasury by the address's own
 * 21,000-gas transfer at the plan's fee cap, and that transfer's fee: null when the fee would take
 * all of it (collecting it would cost more than it holds: it stays). One rule for any native
 * balance a deposit key sends itself, the gas a fund-then-transfer left unused among them.
 */
export function leftGasReturn(balance: bigint, maxFeePerGas: bigint): { send: bigint; fee: bigint } | null {
  const fee = ownTransferFee(maxFeePerGas);
  return balance > fee ? { send: balance - fee, fee } : null;
}

export interface EvmPlanInput {
  planId: string;
  mode: 'live' | 'test';
  network: { name: string; chainId: number; nativeTicker: string; txGasCap?: bigint };
  tokens: readonly { ticker: string; contract: string; decimals: number }[];
  treasury: string;
  gasPayer: { address: string; path: string; nonce: number };
  deposits: readonly DepositHolding[];
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  /** The node's latest block gas limit. */
  blockGasLimit: bigint;
  /** `transfers` collects every address by the fallback (a merchant's choice, or to compare costs). */
  method: 'sweep' | 'transfers';
  createdAt: string;
  status?: EvmCollectionPlan['status'];
}

/** The gas a sweep batch reserves for `accounts` holding what they hold, with `tokenCount` tokens read per account. */
export function sweepBatchGas(accounts: readonly DepositHolding[], tokens: readonly string[]): bigint {
  let gas = GAS.transaction + GAS.sweepBatch;
  for (const account of accounts) {
    gas += GAS.authorization + GAS.sweepAccount + GAS.tokenRead * BigInt(tokens.length);
    for (const token of tokens) if ((account.tokens.get(token) ?? 0n) > 0n) gas += GAS.tokenMove;
    if (account.native > 0n) gas += GAS.nativeMove;
  }
  return gas;
}

/** The gas a `clear` reserves for `accounts` authorizations to address 0. */
export function clearBatchGas(accounts: number): bigint {
  return GAS.transaction + GAS.authorization * BigInt(accounts);
}

/**
 * The gas a plan reserves to sweep `count` addresses holding one token each and no coin, its
 * sweeps chunked to `limit` and its clears included: what the Funds page's cost per address
 * stands on, before the node is asked for any balance. A bound, as every figure of `GAS`.
 */
export function sweepGasFor(count: number, limit: bigint): bigint {
  const token = `0x${'0'.repeat(40)}`;
  const accounts: DepositHolding[] = Array.from({ length: count }, () => ({
    address: token,
    path: '',
    personal: false,
    nonce: 0,
    native: 0n,
    tokens: new Map([[token, 1n]]),
  }));
  return chunkSweeps(accounts, [token], limit).reduce(
    (sum, batch) => sum + sweepBatchGas(batch, [token]) + clearBatchGas(batch.length),
    0n,
  );
}

/** The tokens (lower case) any of `accounts` holds, in the plan's token order. */
function heldTokens(accounts: readonly DepositHolding[], contracts: readonly string[]): string[] {
  return contracts.filter((c) => accounts.some((a) => (a.tokens.get(c) ?? 0n) > 0n));
}

/**
 * Splits `accounts` into batches whose sweep transaction fits `limit` gas, in order. One account
 * alone over the limit cannot happen with the catalog's few tokens; it would still be a batch of one.
 */
export function chunkSweeps(
  accounts: readonly DepositHolding[],
  contracts: readonly string[],
  limit: bigint,
): DepositHolding[][] {
  const batches: DepositHolding[][] = [];
  let current: DepositHolding[] = [];
  for (const account of accounts) {
    const next = [...current, account];
    if (current.length > 0 && sweepBatchGas(next, heldTokens(next, contracts)) > limit) {
      batches.push(current);
      current = [account];
    } else current = next;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function lowerTokens(holding: DepositHolding): DepositHolding {
  return { ...holding, tokens: new Map([...holding.tokens].map(([c, v]) => [c.toLowerCase(), v])) };
}

/** The most gas one sweep may reserve: the network's cap per transaction (EIP-7825's where it names none) and the block gas limit. */
export function batchGasLimit(txGasCap: bigint | undefined, blockGasLimit: bigint): bigint {
  const cap = txGasCap ?? EIP_7825_TX_GAS_CAP;
  return cap < blockGasLimit ? cap : blockGasLimit;
}

/** Builds the plan, or null when no address holds anything worth collecting. */
export function buildEvmCollectionPlan(input: EvmPlanInput): EvmCollectionPlan | null {
  const contracts = input.tokens.map((t) => t.contract.toLowerCase());
  const tickerOf = new Map(input.tokens.map((t) => [t.contract.toLowerCase(), t.ticker]));
  const holding = input.deposits
    .map(lowerTokens)
    .filter((d) => d.native > 0n || contracts.some((c) => (d.tokens.get(c) ?? 0n) > 0n));
  if (holding.length === 0) return null;
  const treasury = getAddress(input.treasury);
  const sweeper = sweeperAddress(treasury);
  const { chainId } = input.network;
  const fees = {
    maxFeePerGas: input.fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: input.fees.maxPriorityFeePerGas.toString(),
  };
  const gasPayer = getAddress(input.gasPayer.address);
  let gasPayerNonce = input.gasPayer.nonce;
  const fromGasPayer = (
    purpose: EvmUnsignedTransaction['purpose'],
    fields: Pick<EvmUnsignedTransaction, 'to' | 'value' | 'data' | 'gas' | 'authorizations'> & { toPath?: string },
  ): EvmUnsignedTransaction => ({
    purpose,
    from: gasPayer,
    path: input.gasPayer.path,
    chainId,
    nonce: gasPayerNonce++,
    ...fields,
    ...fees,
  });

  const swept = input.method === 'sweep' ? holding.filter((d) => !d.personal && !d.gasLeft) : [];
  const transferred = holding.filter((d) => !swept.includes(d));
  const limit = batchGasLimit(input.network.txGasCap, input.blockGasLimit);
  const batches = chunkSweeps(swept, contracts, limit);

  const transactions: EvmUnsignedTransaction[] = [];
  const authorization = (d: DepositHolding, contract: string, nonce: number): EvmAuthorizationRequest => ({
    address: getAddress(d.address),
    path: d.path,
    chainId,
    contract,
    nonce,
  });
  for (const batch of batches) {
    const tokens = heldTokens(batch, contracts).map((c) => getAddress(c));
    transactions.push(
      fromGasPayer('sweep', {
        to: sweeper,
        value: '0',
        data: encodeFunctionData({
          abi: SWEEPER_ABI,
          functionName: 'sweepMany',
          args: [batch.map((d) => getAddress(d.address)), tokens],
        }),
        gas: sweepBatchGas(batch, heldTokens(batch, contracts)).toString(),
        authorizations: batch.map((d) => authorization(d, sweeper, d.nonce)),
      }),
    );
  }
  // After every sweep: the sweep's authorization raised each account's nonce by one.
  for (const batch of batches)
    transactions.push(
      fromGasPayer('clear', {
        to: gasPayer,
        value: '0',
        data: '0x',
        gas: clearBatchGas(batch.length).toString(),
        authorizations: batch.map((d) => authorization(d, zeroAddress, d.nonce + 1)),
      }),
    );

  const ownTransfers: EvmUnsignedTransaction[] = [];
  for (const d of transferred) {
    const address = getAddress(d.address);
    let nonce = d.nonce;
    const tokenMoves = contracts.filter((c) => (d.tokens.get(c) ?? 0n) > 0n);
    if (tokenMoves.length > 0)
      transactions.push(
        fromGasPayer('fund', {
          to: address,
          toPath: d.path,
          value: (GAS.tokenTransfer * BigInt(tokenMoves.length) * input.fees.maxFeePerGas).toString(),
          data: '0x',
          gas: GAS.transaction.toString(),
          authorizations: [],
        }),
      );
    const own = (to: string, value: bigint, data: `0x${string}`, gas: bigint): EvmUnsignedTransaction => ({
      purpose: 'transfer',
      from: address,
      path: d.path,
      chainId,
      nonce: nonce++,
      to,
      value: value.toString(),
      data,
      gas: gas.toString(),
      ...fees,
      authorizations: [],
    });
    for (const c of tokenMoves)
      ownTransfers.push(
        own(
          getAddress(c),
          0n,
          encodeFunctionData({ abi: [ERC20_TRANSFER], args: [treasury, d.tokens.get(c)!] }),
          GAS.tokenTransfer,
        ),
      );
    // The native coin pays its own transfer's fee; a balance below that fee stays (dust).
    const back = leftGasReturn(d.native, input.fees.maxFeePerGas);
    if (back) ownTransfers.push(own(treasury, back.send, '0x', GAS.transaction));
  }
  transactions.push(...ownTransfers);
  // Only native balances below their own transfer's fee: nothing worth a plan.
  if (transactions.length === 0) return null;

  const items: EvmPlanItem[] = holding.map((d) => ({
    address: getAddress(d.address),
    path: d.path,
    personal: d.personal,
    method: swept.includes(d) ? 'sweep' : 'transfers',
    balances: [
      ...(d.native > 0n ? [{ currency: input.network.nativeTicker, amount: d.native.toString() }] : []),
      ...contracts
        .filter((c) => (d.tokens.get(c) ?? 0n) > 0n)
        .map((c) => ({ currency: tickerOf.get(c)!, amount: d.tokens.get(c)!.toString() })),
    ],
  }));
  return {
    planId: input.planId,
    kind: 'collection',
    family: 'evm',
    mode: input.mode,
    network: input.network.name,
    chainId,
    status: input.status ?? 'prepared',
    treasury,
    sweeper,
    gasPayer: { address: gasPayer, path: input.gasPayer.path },
    tokens: input.tokens.map((t) => ({ ticker: t.ticker, contract: getAddress(t.contract), decimals: t.decimals })),
    items,
    transactions,
    maxGasPayerSpend: gasPayerSpend(transactions, gasPayer).toString(),
    createdAt: input.createdAt,
  };
}

/** What the gas payer can spend at most on `transactions`: each of its own at its gas and fee cap, plus the value it sends. */
export function gasPayerSpend(transactions: readonly EvmUnsignedTransaction[], gasPayer: string): bigint {
  return transactions
    .filter((t) => t.from.toLowerCase() === gasPayer.toLowerCase())
    .reduce((sum, t) => sum + BigInt(t.gas) * BigInt(t.maxFeePerGas) + BigInt(t.value), 0n);
}
