/**
 * The signer's decisions on whole plans: the header against its own network, chain and seed, the
 * merchant's node for stale inputs, the confirmation. (The transaction checks themselves:
 * lib/chains/utxo/transactions/transactions.test.ts.)
 */
import { HDKey } from '@scure/bip32';
import { base64, hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { describe, expect, it } from 'vitest';
import {
  addressOfScript,
  buildCollectionPsbt,
  depositScript,
  parseKeyDescriptor,
  SignerRefusal,
} from '../../lib/chains/utxo/transactions';
import type { CollectionPlan } from '../../lib/protocol';
import { rootOfPhrase, signPlan, type SignerConfig } from './sign-plan';

const TEST_WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const OTHER_WORDS = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const testRoot = rootOfPhrase(TEST_WORDS);
const otherRoot = rootOfPhrase(OTHER_WORDS);

function planOf(root: HDKey, overrides: Partial<CollectionPlan> = {}): { plan: CollectionPlan; treasury: string } {
  const account = root.derive("m/84'/1'/0'");
  const key = parseKeyDescriptor(
    `wpkh([${root.fingerprint.toString(16).padStart(8, '0')}/84h/1h/0h]${account.publicExtendedKey}/0/*)`,
  );
  const script = depositScript('wpkh', key.chain.deriveChild(3).publicKey!, 'litecoin', 'regtest');
  const funding = new Transaction({ allowUnknownInputs: true });
  funding.addOutput({ script, amount: 10_000_000n });
  funding.addInput({ txid: new Uint8Array(32).fill(9), index: 0, finalScriptSig: new Uint8Array([0x51]) });
  const treasury = addressOfScript(
    'litecoin',
    'regtest',
    depositScript('wpkh', otherRoot.derive("m/84'/1'/9'/0/0").publicKey!, 'litecoin', 'regtest'),
  )!;
  const built = buildCollectionPsbt({
    coin: 'litecoin',
    chain: 'regtest',
    key,
    inputs: [
      {
        txid: funding.id,
        vout: 0,
        amount: 10_000_000n,
        index: 3,
        previousTx: hex.encode(funding.toBytes(true, false)),
      },
    ],
    treasury,
    feeRate: 1n,
  });
  const plan: CollectionPlan = {
    planId: '6f1f6c3e-2b7a-4c55-9d4e-1a2b3c4d5e6f',
    kind: 'collection',
    mode: 'live',
    network: 'litecoin',
    chain: 'regtest',
    currency: 'LTC',
    format: 'psbt',
    status: 'prepared',
    treasury,
    masterFingerprint: root.fingerprint.toString(16).padStart(8, '0'),
    inputs: [
      {
        txid: funding.id,
        vout: 0,
        address: addressOfScript('litecoin', 'regtest', script)!,
        amount: '0.1',
        path: "m/84'/1'/0'/0/3",
      },
    ],
    total: '0.1',
    fee: '0.00000110',
    feeRate: '1',
    sent: '0.0999989',
    psbt: base64.encode(built.psbt),
    txid: null,
    reason: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
  return { plan, treasury };
}

const { plan, treasury } = planOf(testRoot);
const config: SignerConfig = { network: 'litecoin', chain: 'regtest', treasury, maxFee: '0.001' };
const yes = { confirm: async () => true };

describe('the signer', () => {
  it('signs a plan of its own seed to its treasury, after showing the outputs and the fee', async () => {
    let shown = '';
    const { signed, ledgerEntry } = await signPlan(JSON.stringify(plan), config, testRoot, {
      confirm: async (summary) => ((shown = summary), true),
    });
    expect(ledgerEntry).toBeNull();
    expect(shown).toContain(`pays 0.0999989 LTC to ${treasury} (your treasury)`);
    expect(shown).toMatch(/fee 0\.0000011 LTC/);
    expect(Transaction.fromRaw(hex.decode(signed.rawTx)).id).toBe(signed.txid);
  });

  it("refuses another merchant's plan (merchant B's key)", async () => {
    const theirs = planOf(otherRoot).plan;
    await expect(signPlan(JSON.stringify(theirs), config, testRoot, yes)).rejects.toThrow(
      /spends the key .* this seed is 73c5da0a/,
    );
  });

  it('refuses a test plan with a seed of its own, and a live mainnet plan with the public test seed', async () => {
    const test = planOf(otherRoot, { mode: 'test' }).plan;
    await expect(signPlan(JSON.stringify(test), config, otherRoot, yes)).rejects.toThrow(/test plan/);
    const mainnet = { ...plan, chain: 'mainnet' as const };
    await expect(signPlan(JSON.stringify(mainnet), { ...config, chain: 'mainnet' }, testRoot, yes)).rejects.toThrow(
      /public test seed/,
    );
  });

  it("refuses a plan of another format than its network's: a PSBT for dogecoin, a raw transaction for litecoin", async () => {
    await expect(signPlan(JSON.stringify(plan), { ...config, network: 'dogecoin' }, testRoot, yes)).rejects.toThrow(
      'dogecoin plans are not of format psbt',
    );
    const { psbt: _psbt, ...fields } = plan;
    const raw = {
      ...fields,
      format: 'raw',
      unsignedTx: '00',
      inputs: plan.inputs.map((input) => ({ ...input, script: '00', previousTx: '00' })),
    };
    await expect(signPlan(JSON.stringify(raw), config, testRoot, yes)).rejects.toThrow(
      'litecoin plans are not of format raw',
    );
  });

  it('refuses a stale plan: an input its node says is spent', async () => {
    await expect(
      signPlan(JSON.stringify(plan), config, testRoot, { ...yes, unspent: async () => false }),
    ).rejects.toThrow(/is spent already .* the plan is stale/);
  });

  it('signs nothing the merchant does not confirm, and reads nothing but a plan', async () => {
    await expect(
      signPlan(JSON.stringify(plan), config, testRoot, { confirm: async () => false }),
    ).rejects.toBeInstanceOf(SignerRefusal);
    await expect(signPlan('{"kind":"collection"}', config, testRoot, yes)).rejects.toThrow(
      /not a collection or refund plan/,
    );
    expect(() => rootOfPhrase(TEST_WORDS.replace(/about$/, 'abandon'))).toThrow(/checksum/);
  });
});
