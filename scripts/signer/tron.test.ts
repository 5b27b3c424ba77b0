/**
 * The signer's decisions on whole Tron plans, without a node: the header against its chain and
 * seed, the treasury, token and resource account of its configuration, deposit paths of its own
 * chain, a reclaim of exactly what was lent, and the transactions it writes (signed by the right
 * key, in order). The contract checks themselves: lib/chains/tron/transactions/transactions.test.ts.
 */
import { randomUUID } from 'node:crypto';
import type { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import {
  RESOURCE,
  buildTransaction,
  signerOf,
  transferCallData,
  tronAddress,
  tronAddressBytes,
  tronAddressOfBytes,
  type TronContract,
} from '../../lib/chains/tron/transactions';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import type { TronCollectionPlan } from '../../lib/protocol';
import { rootOfPhrase } from './sign-plan';
import { signTronPlan, tronSignerConfigSchema } from './tron';

const TEST_WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const testRoot = rootOfPhrase(TEST_WORDS);
const otherRoot = rootOfPhrase('legal winner thank year wave sausage worth useful legal winner thank yellow');
const RESOURCE_PATH = "m/44'/195'/1'/0/0";
const DEPOSIT_PATH = "m/44'/195'/0'/0/4";
const addressAt = (root: HDKey, path: string) => tronAddress(root.derive(path).publicKey!);
const TREASURY = tronAddressOfBytes(Uint8Array.of(0x41, ...new Uint8Array(20).fill(7)));
const TOKEN = tronAddressOfBytes(Uint8Array.of(0x41, ...new Uint8Array(20).fill(9)));
const config = tronSignerConfigSchema.parse({
  network: 'tron',
  chain: 'testnet',
  treasury: TREASURY,
  tokens: [TOKEN],
  maxBurn: '20',
});

function planOf(
  root: HDKey,
  overrides: { reclaim?: bigint; path?: string; mode?: 'test' | 'live' } = {},
): TronCollectionPlan {
  const resource = tronAddressBytes(addressAt(root, RESOURCE_PATH));
  const path = overrides.path ?? DEPOSIT_PATH;
  const depositAddress = addressAt(root, path);
  const deposit = tronAddressBytes(depositAddress);
  const ref = { height: 10, id: 'cd'.repeat(32), timestamp: 1_700_000_000_000 };
  let timestamp = ref.timestamp;
  const step = (
    name: TronCollectionPlan['addresses'][number]['steps'][number]['step'],
    contract: TronContract,
    feeLimit = 0n,
  ) => ({
    step: name,
    ...buildTransaction(ref, contract, { expiration: ref.timestamp + 3_600_000, timestamp: ++timestamp }, feeLimit),
    burn: '0',
    status: 'prepared' as const,
    reason: null,
  });
  const lend = { owner: resource, resource: RESOURCE.ENERGY, receiver: deposit };
  return {
    planId: randomUUID(),
    kind: 'collection',
    format: 'tron',
    mode: overrides.mode ?? 'live',
    network: 'tron',
    chain: 'testnet',
    currency: 'USDT',
    token: TOKEN,
    treasury: TREASURY,
    resourceAccount: { address: addressAt(root, RESOURCE_PATH), path: RESOURCE_PATH },
    energySource: 'stake',
    prices: {
      energyFee: '100',
      transactionFee: '1000',
      createAccountFee: '100000',
      createNewAccountFeeInSystemContract: '1000000',
      energyFactor: '0',
    },
    addresses: [
      {
        address: depositAddress,
        path,
        amount: '5000000',
        active: false,
        energy: '29650',
        delegated: '3000000000',
        steps: [
          step('activate', { type: 'TransferContract', owner: resource, to: deposit, amount: 1n }),
          step('delegate', {
            type: 'DelegateResourceContract',
            ...lend,
            balance: 3_000_000_000n,
            lock: false,
            lockPeriod: 0n,
          }),
          step(
            'transfer',
            {
              type: 'TriggerSmartContract',
              owner: deposit,
              contract: tronAddressBytes(TOKEN),
              callValue: 0n,
              data: transferCallData(tronAddressBytes(TREASURY), 5_000_000n),
              callTokenValue: 0n,
              tokenId: 0n,
            },
            2_965_000n,
          ),
          step('reclaim', {
            type: 'UnDelegateResourceContract',
            ...lend,
            balance: overrides.reclaim ?? 3_000_000_000n,
          }),
        ],
      },
    ],
    total: '5000000',
    burn: '1100000',
    status: 'prepared',
    expiresAt: new Date(1_700_003_600_000).toISOString(),
    reason: null,
    createdAt: new Date(1_700_000_000_000).toISOString(),
  };
}

const refusalOf = (plan: TronCollectionPlan, root: HDKey, cfg = config) =>
  signTronPlan(plan, cfg, root, async () => true).then(
    () => '',
    (error: unknown) => (error instanceof SignerRefusal ? error.message : `not a refusal: ${String(error)}`),
  );

describe('the signer on a Tron plan', () => {
  it('signs each step with the key of its sender, in order, after showing what it burns', async () => {
    const shown: string[] = [];
    const plan = planOf(otherRoot);
    const signed = await signTronPlan(plan, config, otherRoot, async (summary) => {
      shown.push(summary);
      return true;
    });
    expect(signed.transactions.map((t) => t.step)).toEqual(['activate', 'delegate', 'transfer', 'reclaim']);
    const signers = signed.transactions.map((t) => {
      // The signature is the last 65 bytes of the Transaction message (field 2 after raw_data).
      const signature = Uint8Array.from(Buffer.from(t.transaction.slice(-130), 'hex'));
      return tronAddressOfBytes(signerOf(t.txID, signature)!);
    });
    const resource = addressAt(otherRoot, RESOURCE_PATH);
    expect(signers).toEqual([resource, resource, addressAt(otherRoot, DEPOSIT_PATH), resource]);
    expect(shown[0]).toContain('lend the energy of 3000 TRX staked');
    expect(shown[0]).toContain(`to ${TREASURY}, burning at most 2.965 TRX`);
  });

  it('refuses a live plan of mainnet with the public test seed, and a test plan with a seed of its own', async () => {
    const mainnet = { ...config, chain: 'mainnet' as const };
    expect(await refusalOf({ ...planOf(testRoot), chain: 'mainnet' }, testRoot, mainnet)).toMatch(/public test seed/);
    expect(await refusalOf(planOf(otherRoot, { mode: 'test' }), otherRoot)).toMatch(
      /test plans are signed with the public test seed/,
    );
  });

  it('refuses another treasury, token or resource account than its own, and a path outside the deposit chain', async () => {
    expect(await refusalOf({ ...planOf(otherRoot), treasury: TOKEN }, otherRoot)).toMatch(/this signer's treasury is/);
    expect(await refusalOf({ ...planOf(otherRoot), token: TREASURY }, otherRoot)).toMatch(
      /is not one this signer's configuration names/,
    );
    expect(await refusalOf(planOf(otherRoot), testRoot)).toMatch(/the resource account of this seed is/);
    expect(await refusalOf(planOf(otherRoot, { path: "m/44'/195'/1'/0/0" }), otherRoot)).toMatch(
      /is not a deposit path/,
    );
  });

  it('refuses a reclaim of less than was lent, and a delegation never reclaimed', async () => {
    expect(await refusalOf(planOf(otherRoot, { reclaim: 1_000_000n }), otherRoot)).toMatch(
      /reclaims 1000000 sun, not the 3000000000/,
    );
    const plan = planOf(otherRoot);
    plan.addresses[0]!.steps.pop();
    expect(await refusalOf(plan, otherRoot)).toMatch(/energy is delegated and never reclaimed/);
  });

  it('a plan of TRX itself: each sweep signed by its deposit key, a sweep in a token plan and a token step in a TRX plan refused', async () => {
    const token = planOf(otherRoot);
    const [item] = token.addresses;
    const deposit = tronAddressBytes(item!.address);
    const ref = { height: 10, id: 'cd'.repeat(32), timestamp: 1_700_000_000_000 };
    const sweep = {
      step: 'sweep' as const,
      ...buildTransaction(
        ref,
        { type: 'TransferContract', owner: deposit, to: tronAddressBytes(TREASURY), amount: 40_000_000n },
        { expiration: ref.timestamp + 3_600_000, timestamp: ref.timestamp + 9 },
      ),
      burn: '0',
      status: 'prepared' as const,
      reason: null,
    };
    const trx: TronCollectionPlan = {
      ...token,
      currency: 'TRX',
      token: null,
      energySource: 'burn',
      addresses: [{ ...item!, amount: '40000000', active: true, energy: '0', delegated: '0', steps: [sweep] }],
    };
    const shown: string[] = [];
    const signed = await signTronPlan(trx, config, otherRoot, async (summary) => {
      shown.push(summary);
      return true;
    });
    const signature = Uint8Array.from(Buffer.from(signed.transactions[0]!.transaction.slice(-130), 'hex'));
    expect(tronAddressOfBytes(signerOf(sweep.txID, signature)!)).toBe(item!.address);
    expect(shown[0]).toContain(`sweep    send 40 TRX of its own to ${TREASURY}`);
    expect(shown[0]).toContain('each address paying its own bandwidth');
    expect(await refusalOf({ ...token, addresses: [{ ...item!, steps: [...item!.steps, sweep] }] }, otherRoot)).toMatch(
      /sweep is not a step of a plan of a token/,
    );
    expect(await refusalOf({ ...trx, addresses: [{ ...item!, steps: [item!.steps[0]!, sweep] }] }, otherRoot)).toMatch(
      /activate is not a step of a plan of TRX itself/,
    );
  });
});
