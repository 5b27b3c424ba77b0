/**
 * The signer against a gateway playing attacker on EVM collection plans (docs/decisions/085): an
 * honest plan is signed (its authorizations by the deposit keys, for the sweeper of the signer's own
 * treasury); a plan rewritten to call approve, another contract, another chain id (or chain id 0),
 * to fund an address of someone else's, or to spend past the gas payer's cap is refused, naming why.
 */
import { encodeFunctionData, getAddress, parseAbi, parseTransaction, zeroAddress } from 'viem';
import { recoverAuthorizationAddress } from 'viem/utils';
import { describe, expect, it } from 'vitest';
import {
  EVM_DEPOSIT_CHAIN_PATH,
  EVM_GAS_PAYER_PATH,
  SWEEPER_ABI,
  addressOfKey,
  buildEvmCollectionPlan,
  sweeperAddress,
  type DepositHolding,
  type EvmCollectionPlan as PlanAsTheSignerReadsIt,
} from '../../lib/chains/evm/transactions';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import type { EvmCollectionPlan } from '../../lib/protocol';
import { evmSignerConfigSchema, signEvmPlanText } from './sign-evm';
import { rootOfPhrase } from './sign-plan';

const root = rootOfPhrase('legal winner thank year wave sausage worth useful legal winner thank yellow');
const TREASURY = getAddress('0x7e57000000000000000000000000000000c0ffee');
const TOKEN = getAddress('0xdac17f958d2ee523a2206206994597c13d831ec7');
const ATTACKER = getAddress('0xbad0000000000000000000000000000000000bad');
const CHAIN = 1337;
const depositPath = (i: number) => `${EVM_DEPOSIT_CHAIN_PATH}/${i}`;
const chainKey = root.derive(EVM_DEPOSIT_CHAIN_PATH);
const depositAt = (i: number) => addressOfKey(chainKey.deriveChild(i));
const gasPayer = addressOfKey(root.derive(EVM_GAS_PAYER_PATH));

const config = evmSignerConfigSchema.parse({
  family: 'evm',
  network: 'ethereum',
  chainId: CHAIN,
  treasury: TREASURY,
  tokens: [TOKEN],
  maxGasPayerSpend: '1',
});

function holding(i: number, token: bigint, native = 0n, personal = false): DepositHolding {
  return { address: depositAt(i), path: depositPath(i), personal, nonce: 0, native, tokens: new Map([[TOKEN, token]]) };
}

/** Two pool addresses swept, one personal address funded then transferring its token and native coin. */
function honestPlan(): EvmCollectionPlan {
  return buildEvmCollectionPlan({
    planId: '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    mode: 'live',
    network: { name: 'ethereum', chainId: CHAIN, nativeTicker: 'ETH' },
    tokens: [{ ticker: 'USDT', contract: TOKEN, decimals: 6 }],
    treasury: TREASURY,
    gasPayer: { address: gasPayer, path: EVM_GAS_PAYER_PATH, nonce: 4 },
    deposits: [holding(0, 5_000_000n), holding(1, 0n, 10n ** 16n), holding(2, 7_000_000n, 10n ** 16n, true)],
    fees: { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
    blockGasLimit: 30_000_000n,
    method: 'sweep',
    createdAt: '2026-11-27T12:00:00.000Z',
  })!;
}

async function sign(plan: EvmCollectionPlan, signerConfig = config) {
  return signEvmPlanText(JSON.stringify(plan), signerConfig, root, { confirm: async () => true });
}

async function refusal(plan: EvmCollectionPlan, signerConfig = config): Promise<string> {
  const error = await sign(plan, signerConfig).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignerRefusal);
  return (error as SignerRefusal).message;
}

const txOf = (plan: EvmCollectionPlan, purpose: string, from?: string) =>
  plan.transactions.find((t) => t.purpose === purpose && (!from || t.from === from))!;

describe('the signer and EVM collection plans', () => {
  it('signs an honest plan: the sweep and the clear from the gas payer, authorizations by the deposit keys', async () => {
    const plan = honestPlan();
    expect(plan.transactions.map((t) => t.purpose)).toEqual(['sweep', 'clear', 'fund', 'transfer', 'transfer']);
    const { transactions } = await sign(plan);
    const sweep = parseTransaction(transactions[0]!.raw);
    expect(sweep.type).toBe('eip7702');
    expect(getAddress(sweep.to!)).toBe(sweeperAddress(TREASURY));
    const signers = await Promise.all(
      sweep.authorizationList!.map((a) => recoverAuthorizationAddress({ authorization: a })),
    );
    expect(signers).toEqual([depositAt(0), depositAt(1)]);
    expect(sweep.authorizationList!.map((a) => [a.chainId, getAddress(a.address), a.nonce])).toEqual([
      [CHAIN, sweeperAddress(TREASURY), 0],
      [CHAIN, sweeperAddress(TREASURY), 0],
    ]);
    const clear = parseTransaction(transactions[1]!.raw);
    expect(clear.authorizationList!.map((a) => [getAddress(a.address), a.nonce])).toEqual([
      [zeroAddress, 1],
      [zeroAddress, 1],
    ]);
    // The personal address is never delegated: funded, then its own transfers.
    expect(transactions.slice(2).map((t) => [t.purpose, t.from])).toEqual([
      ['fund', gasPayer],
      ['transfer', depositAt(2)],
      ['transfer', depositAt(2)],
    ]);
  });

  it('refuses a token transfer rewritten into approve', async () => {
    const plan = honestPlan();
    txOf(plan, 'transfer').data = encodeFunctionData({
      abi: parseAbi(['function approve(address spender, uint256 amount) returns (bool)']),
      args: [ATTACKER, 2n ** 256n - 1n],
    });
    expect(await refusal(plan)).toMatch(/calls approve\(address,uint256\) on the token/);
  });

  it('refuses a transfer of the token to anyone but the treasury, and calldata beyond it', async () => {
    const plan = honestPlan();
    const transfer = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);
    txOf(plan, 'transfer').data = encodeFunctionData({ abi: transfer, args: [ATTACKER, 7_000_000n] });
    expect(await refusal(plan)).toMatch(/transfers the token to 0x[bB][aA][dD]0.*not to the treasury/);
    const padded = honestPlan();
    padded.transactions.find((t) => t.purpose === 'transfer' && t.to === TOKEN)!.data += '00';
    expect(await refusal(padded)).toMatch(/calldata beyond transfer\(treasury, amount\)/);
  });

  it('refuses another contract: a sweep sent elsewhere, a transfer to a token it does not know, a delegation to another code', async () => {
    const elsewhere = honestPlan();
    txOf(elsewhere, 'sweep').to = ATTACKER;
    expect(await refusal(elsewhere)).toMatch(/calls 0x[bB][aA][dD]0.*not the sweeper of this signer's treasury/);

    const otherToken = honestPlan();
    txOf(otherToken, 'transfer', depositAt(2)).to = ATTACKER;
    expect(await refusal(otherToken)).toMatch(/neither the treasury nor a token of this signer's configuration/);

    const otherCode = honestPlan();
    txOf(otherCode, 'sweep').authorizations[0]!.contract = ATTACKER;
    expect(await refusal(otherCode)).toMatch(/delegates to 0x[bB][aA][dD]0.*may only delegate to/);

    const otherCall = honestPlan();
    txOf(otherCall, 'sweep').data = encodeFunctionData({ abi: SWEEPER_ABI, functionName: 'sweep', args: [[TOKEN]] });
    expect(await refusal(otherCall)).toMatch(/calls sweep on the sweeper, not sweepMany/);

    // A sweeper of another treasury, named consistently everywhere: still not this signer's.
    const otherTreasury = honestPlan();
    const theirs = sweeperAddress(ATTACKER);
    otherTreasury.treasury = ATTACKER;
    otherTreasury.sweeper = theirs;
    txOf(otherTreasury, 'sweep').to = theirs;
    for (const a of txOf(otherTreasury, 'sweep').authorizations) a.contract = theirs;
    const message = await refusal(otherTreasury);
    expect(message).toMatch(/this signer's treasury is/);
    expect(message).toMatch(/not the sweeper of this signer's treasury/);
  });

  it('refuses another chain id, and an authorization for chain id 0', async () => {
    const other = honestPlan();
    other.chainId = 1;
    for (const t of other.transactions) {
      t.chainId = 1;
      for (const a of t.authorizations) a.chainId = 1;
    }
    const message = await refusal(other);
    expect(message).toMatch(/the plan is for chain id 1; this signer signs chain id 1337/);
    expect(message).toMatch(/the authorization of .* is for chain id 1; this signer signs 1337/);

    const anyChain = honestPlan();
    txOf(anyChain, 'sweep').authorizations[1]!.chainId = 0;
    expect(await refusal(anyChain)).toMatch(/is for chain id 0 \(every chain\): never signed/);
  });

  it('refuses accounts swept without their authorization, authorizations of keys not its own, funding a stranger', async () => {
    const extra = honestPlan();
    txOf(extra, 'sweep').data = encodeFunctionData({
      abi: SWEEPER_ABI,
      functionName: 'sweepMany',
      args: [[depositAt(0), depositAt(1), ATTACKER], [TOKEN]],
    });
    expect(await refusal(extra)).toMatch(/sweeps accounts other than the ones it authorizes/);

    const notOwn = honestPlan();
    txOf(notOwn, 'sweep').authorizations[0]!.path = "m/44'/60'/7'/0/0";
    expect(await refusal(notOwn)).toMatch(/not a deposit address of this seed/);

    const stranger = honestPlan();
    txOf(stranger, 'fund').to = ATTACKER;
    expect(await refusal(stranger)).toMatch(/funds 0x[bB][aA][dD]0.*not a deposit address this signer derives/);
  });

  it("refuses a plan past the gas payer's cap", async () => {
    const plan = honestPlan();
    txOf(plan, 'fund').value = (10n ** 18n).toString();
    expect(await refusal(plan)).toMatch(
      /the gas payer would spend up to \d+ wei; this signer's cap is 1000000000000000000 wei/,
    );
  });

  it('refuses a test plan with a seed of its own', async () => {
    const plan = honestPlan();
    plan.mode = 'test';
    expect(await refusal(plan)).toMatch(/test plans are signed with the public test seed/);
  });
});

// The wire contract's plan (what the signer parses) fits what the transaction code reads: tsc checks it.
const fits: PlanAsTheSignerReadsIt = honestPlan();
void fits;
