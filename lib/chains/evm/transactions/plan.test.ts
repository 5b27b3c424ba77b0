/**
 * Building EVM collection plans, without a node: which addresses are swept and which take the
 * fallback, how batches are cut by the gas cap and the block gas limit, the nonces, and what the
 * gas payer can spend (docs/decisions/085). The same plans run on anvil in tests/collections-evm.pg.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  EIP_7825_TX_GAS_CAP,
  GAS,
  buildEvmCollectionPlan,
  batchGasLimit,
  chunkSweeps,
  leftGasReturn,
  sweepBatchGas,
  sweepGasFor,
  type DepositHolding,
} from './plan';
import { sweeperAddress } from './sweeper';

const TOKEN = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const TREASURY = '0x7e57000000000000000000000000000000c0ffee';
const GAS_PAYER = '0x1111111111111111111111111111111111111111';
const addressOf = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}`;

function holding(i: number, token: bigint, native = 0n, personal = false, nonce = 0): DepositHolding {
  return {
    address: addressOf(i),
    path: `m/44'/60'/0'/0/${i}`,
    personal,
    nonce,
    native,
    // In the case a node or the catalog writes it: the plan compares contracts in lower case.
    tokens: new Map([['0xdAC17F958D2ee523a2206206994597C13D831ec7', token]]),
  };
}

function build(deposits: DepositHolding[], options: { blockGasLimit?: bigint; method?: 'sweep' | 'transfers' } = {}) {
  return buildEvmCollectionPlan({
    planId: '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    mode: 'live',
    network: { name: 'ethereum', chainId: 1, nativeTicker: 'ETH' },
    tokens: [{ ticker: 'USDT', contract: TOKEN, decimals: 6 }],
    treasury: TREASURY,
    gasPayer: { address: GAS_PAYER, path: "m/44'/60'/1'/0/0", nonce: 7 },
    deposits,
    fees: { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n },
    blockGasLimit: options.blockGasLimit ?? 60_000_000n,
    method: options.method ?? 'sweep',
    createdAt: '2026-11-27T12:00:00.000Z',
  });
}

describe('EVM collection plans', () => {
  it('is nothing when no address holds anything', () => {
    expect(build([holding(0, 0n), holding(1, 0n)])).toBeNull();
  });

  it('sweeps pool addresses in one batch then clears them; the gas payer numbers its transactions from its nonce', () => {
    const plan = build([holding(0, 5n, 0n, false, 3), holding(1, 0n, 100n), holding(2, 0n)])!;
    expect(plan.items.map((i) => [i.address, i.method])).toEqual([
      [addressOf(0), 'sweep'],
      [addressOf(1), 'sweep'],
    ]);
    const [sweep, clear] = plan.transactions;
    expect(plan.transactions).toHaveLength(2);
    expect([sweep!.purpose, sweep!.nonce, clear!.purpose, clear!.nonce]).toEqual(['sweep', 7, 'clear', 8]);
    expect(sweep!.to).toBe(sweeperAddress(TREASURY as `0x${string}`));
    expect(sweep!.authorizations.map((a) => [a.nonce, a.contract])).toEqual([
      [3, plan.sweeper],
      [0, plan.sweeper],
    ]);
    // The sweep raised each address's nonce by one: the clear signs the next.
    expect(clear!.authorizations.map((a) => [a.nonce, a.contract])).toEqual([
      [4, '0x0000000000000000000000000000000000000000'],
      [1, '0x0000000000000000000000000000000000000000'],
    ]);
    expect(BigInt(clear!.gas)).toBe(GAS.transaction + 2n * GAS.authorization);
    expect(BigInt(plan.maxGasPayerSpend)).toBe((BigInt(sweep!.gas) + BigInt(clear!.gas)) * 10n);
  });

  it('never delegates a personal address: it is funded, then transfers its token and its native coin less the fee', () => {
    const plan = build([holding(0, 5n), holding(1, 9n, 1_000_000n, true, 2)])!;
    expect(plan.items.map((i) => i.method)).toEqual(['sweep', 'transfers']);
    expect(plan.transactions.flatMap((t) => t.authorizations.map((a) => a.address))).not.toContain(addressOf(1));
    const own = plan.transactions.filter((t) => t.from.toLowerCase() === addressOf(1));
    expect(own.map((t) => [t.nonce, t.to.toLowerCase(), t.value])).toEqual([
      [2, TOKEN, '0'],
      [3, TREASURY, (1_000_000n - 21_000n * 10n).toString()],
    ]);
    const fund = plan.transactions.find((t) => t.purpose === 'fund')!;
    expect([fund.to.toLowerCase(), fund.toPath, fund.value]).toEqual([
      addressOf(1),
      "m/44'/60'/0'/0/1",
      (GAS.tokenTransfer * 10n).toString(),
    ]);
  });

  it('leaves a native balance below its own fee where it is: no plan for dust alone', () => {
    expect(build([holding(0, 0n, 21_000n * 10n)], { method: 'transfers' })).toBeNull();
    const plan = build([holding(0, 0n, 21_000n * 10n + 1n)], { method: 'transfers' })!;
    expect(plan.transactions.map((t) => [t.purpose, t.value])).toEqual([['transfer', '1']]);
  });

  it('the gas a fund-then-transfer left goes back when worth more than its own transfer at the fee cap', () => {
    expect(leftGasReturn(210_000n, 10n)).toBeNull();
    expect(leftGasReturn(210_001n, 10n)).toEqual({ send: 1n, fee: 210_000n });
    expect(leftGasReturn(0n, 10n)).toBeNull();
  });

  it('an address holding only gas left is never swept: it sends its coin back by its own transfer, in the next token plan', () => {
    const left = { ...holding(1, 0n, 3_000_000n, false, 4), gasLeft: true };
    const plan = build([holding(0, 5n), left])!;
    expect(plan.items.map((i) => [i.address, i.method])).toEqual([
      [addressOf(0), 'sweep'],
      [addressOf(1), 'transfers'],
    ]);
    expect(plan.transactions.flatMap((t) => t.authorizations.map((a) => a.address))).not.toContain(addressOf(1));
    expect(
      plan.transactions
        .filter((t) => t.from.toLowerCase() === addressOf(1))
        .map((t) => [t.nonce, t.to.toLowerCase(), t.value]),
    ).toEqual([[4, TREASURY, (3_000_000n - 21_000n * 10n).toString()]]);
    // It holds no token: the gas payer funds it nothing.
    expect(plan.transactions.filter((t) => t.purpose === 'fund')).toEqual([]);
  });

  it('cuts batches at the cap per transaction, and at a block gas limit below it', () => {
    const many = Array.from({ length: 400 }, (_, i) => holding(i, 1n));
    const lowered = many.map((h) => ({ ...h, tokens: new Map([[TOKEN, 1n]]) }));
    const perAccount = sweepBatchGas([lowered[0]!], [TOKEN]) - GAS.transaction - GAS.sweepBatch;
    const fit = Number((EIP_7825_TX_GAS_CAP - GAS.transaction - GAS.sweepBatch) / perAccount);
    const batches = chunkSweeps(lowered, [TOKEN], EIP_7825_TX_GAS_CAP);
    expect(batches.map((b) => b.length)).toEqual([fit, fit, 400 - 2 * fit]);
    for (const b of batches) expect(sweepBatchGas(b, [TOKEN])).toBeLessThanOrEqual(EIP_7825_TX_GAS_CAP);

    const plan = build(many, { blockGasLimit: 5_000_000n })!;
    const sweeps = plan.transactions.filter((t) => t.purpose === 'sweep');
    expect(sweeps.length).toBeGreaterThan(3);
    for (const t of plan.transactions) expect(BigInt(t.gas)).toBeLessThanOrEqual(5_000_000n);
    expect(sweeps.flatMap((t) => t.authorizations.map((a) => a.address.toLowerCase()))).toEqual(
      many.map((h) => h.address),
    );
  });

  it("estimates a sweep's gas as the plan reserves it, for the Funds page: batches and clears, split at the cap", () => {
    const gasOf = (plan: ReturnType<typeof build>) => plan!.transactions.reduce((sum, t) => sum + BigInt(t.gas), 0n);
    const deposits = Array.from({ length: 30 }, (_, i) => holding(i, 1n));
    expect(sweepGasFor(30, batchGasLimit(undefined, 60_000_000n))).toBe(gasOf(build(deposits)));
    // A block gas limit that splits the 30 into batches: the estimate splits them alike.
    const ten = deposits.slice(0, 10).map((d) => ({ ...d, tokens: new Map([[TOKEN.toLowerCase(), 1n]]) }));
    const small = sweepBatchGas(ten, [TOKEN.toLowerCase()]);
    const split = build(deposits, { blockGasLimit: small });
    expect(split!.transactions.filter((t) => t.purpose === 'sweep')).toHaveLength(3);
    expect(sweepGasFor(30, batchGasLimit(undefined, small))).toBe(gasOf(split));
    expect(batchGasLimit(undefined, 60_000_000n)).toBe(EIP_7825_TX_GAS_CAP);
    expect(batchGasLimit(30_000_000n, 20_000_000n)).toBe(20_000_000n);
  });
});
