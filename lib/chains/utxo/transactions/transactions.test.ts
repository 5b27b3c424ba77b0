/**
 * Collection PSBTs and the signer's checks, without a node: previous transactions made here pay
 * the public test seed's litecoin regtest deposit addresses. The attacks are a gateway rewriting
 * what it hands the signer: another payee, another sighash, a larger fee, a lie about an amount,
 * another merchant's seed, a plan of the other mode.
 */
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { hex } from '@scure/base';
import { Transaction, SigHash } from '@scure/btc-signer/transaction.js';
import { describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_SEED_FINGERPRINT,
  SignerRefusal,
  addressOfScript,
  buildCollectionPsbt,
  buildRefundPsbt,
  depositScript,
  descriptorChecksum,
  parseKeyDescriptor,
  planHeaderRefusals,
  reviewCollectionPsbt,
  signCollectionPsbt,
  type CollectionInput,
  type SignerPolicy,
} from '.';

const TEST_WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const testRoot = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_WORDS));
const otherRoot = HDKey.fromMasterSeed(
  mnemonicToSeedSync('legal winner thank year wave sausage worth useful legal winner thank yellow'),
);
const ACCOUNT = "m/84'/1'/0'";

function descriptorOf(root: HDKey): string {
  const account = root.derive(ACCOUNT);
  const fp = root.fingerprint.toString(16).padStart(8, '0');
  return `wpkh([${fp}/84h/1h/0h]${account.publicExtendedKey}/0/*)`;
}

const key = parseKeyDescriptor(descriptorOf(testRoot));
const addressAt = (root: HDKey, path: string) =>
  addressOfScript('litecoin', 'regtest', depositScript('wpkh', root.derive(path).publicKey!, 'litecoin', 'regtest'))!;
/** The merchant's treasury: an address of a wallet of its own. */
const treasury = addressAt(otherRoot, "m/84'/1'/5'/0/0");
const elsewhere = addressAt(otherRoot, "m/84'/1'/6'/0/0");

/** A transaction paying `amounts` to deposit addresses 1..n of `root` (its one input is made up). */
function funding(root: HDKey, amounts: bigint[]): { raw: string; txid: string; inputs: CollectionInput[] } {
  const tx = new Transaction({ allowUnknownInputs: true });
  const chain = root.derive(`${ACCOUNT}/0`);
  amounts.forEach((amount, i) =>
    tx.addOutput({ script: depositScript('wpkh', chain.deriveChild(i + 1).publicKey!, 'litecoin', 'regtest'), amount }),
  );
  // Outputs first: an input with its final script counts as signed, which closes the outputs.
  tx.addInput({ txid: new Uint8Array(32).fill(7), index: 0, finalScriptSig: new Uint8Array([0x51]) });
  const raw = hex.encode(tx.toBytes(true, false));
  const txid = tx.id;
  return { raw, txid, inputs: amounts.map((amount, i) => ({ txid, vout: i, amount, index: i + 1, previousTx: raw })) };
}

const policy: SignerPolicy = { coin: 'litecoin', chain: 'regtest', treasury, maxFee: 100_000n };
const paid = funding(testRoot, [50_000_000n, 25_000_000n, 1_000_000n]);
const draft = { coin: 'litecoin' as const, chain: 'regtest' as const, key, inputs: paid.inputs, treasury, feeRate: 2n };

describe('descriptors', () => {
  it('reads the key origin, checks the checksum, refuses a private key', () => {
    expect(key.masterFingerprint).toBe(PUBLIC_TEST_SEED_FINGERPRINT);
    expect(key.accountPath).toEqual([0x80000054, 0x80000001, 0x80000000]);
    expect(key.chainXpub).toBe(testRoot.derive(`${ACCOUNT}/0`).publicExtendedKey);
    const [body, checksum] = key.text.split('#');
    expect(descriptorChecksum(body!)).toBe(checksum);
    expect(parseKeyDescriptor(key.text).text).toBe(key.text);
    expect(() => parseKeyDescriptor(`${body}#${'q'.repeat(8)}`)).toThrow(/checksum/);
    const xprv = testRoot.derive(ACCOUNT).privateExtendedKey;
    expect(() => parseKeyDescriptor(`wpkh([73c5da0a/84h/1h/0h]${xprv}/0/*)`)).toThrow(/PRIVATE/);
    expect(() =>
      parseKeyDescriptor(`wpkh([73c5da0a/84h/1h]${testRoot.derive(ACCOUNT).publicExtendedKey}/0/*)`),
    ).toThrow(/depth/);
    expect(() => parseKeyDescriptor('tr(xpub)')).toThrow(/expected/);
  });
  it('matches a checksum Bitcoin Core computed', () => {
    // From Bitcoin Core's doc/descriptors.md.
    expect(descriptorChecksum('addr(mkmZxiEcEd8ZqjQWVZuC6so5dFMKEFpN2j)')).toBe('02wpgw69');
  });
});

describe('collection PSBTs', () => {
  it('carry each input derivation, previous transaction and the global xpub; the test seed signs them', () => {
    const built = buildCollectionPsbt(draft);
    expect(built.sent + built.fee).toBe(76_000_000n);
    expect(built.fee).toBe(BigInt(built.vsize) * 2n);
    const tx = Transaction.fromPSBT(built.psbt);
    for (let i = 0; i < tx.inputsLength; i++) {
      const input = tx.getInput(i);
      expect(input.nonWitnessUtxo).toBeDefined();
      expect(input.bip32Derivation![0]![1]).toEqual({
        fingerprint: PUBLIC_TEST_SEED_FINGERPRINT,
        path: [0x80000054, 0x80000001, 0x80000000, 0, i + 1],
      });
    }
    const signed = signCollectionPsbt(built.psbt, testRoot, policy);
    expect(signed.review.outputs).toEqual([{ address: treasury, amount: built.sent, to: 'treasury' }]);
    expect(signed.review.inputs.map((i) => i.path)).toEqual(["m/84'/1'/0'/0/1", "m/84'/1'/0'/0/2", "m/84'/1'/0'/0/3"]);
    expect(signed.rawTx).toMatch(/^02000000/);
    // The estimate is never below the signed transaction's size.
    expect(Transaction.fromRaw(hex.decode(signed.rawTx)).vsize).toBeLessThanOrEqual(built.vsize);
  });

  it('refuses a plan that pays another address', () => {
    const rewritten = buildCollectionPsbt({ ...draft, treasury: elsewhere });
    expect(() => reviewCollectionPsbt(rewritten.psbt, testRoot, policy)).toThrow(
      new RegExp(`output 0 pays ${elsewhere}, which is neither the treasury`),
    );
  });

  for (const [name, sighash] of [
    ['SIGHASH_NONE', SigHash.NONE],
    ['SIGHASH_ALL|ANYONECANPAY', SigHash.ALL_ANYONECANPAY],
    ['SIGHASH_SINGLE', SigHash.SINGLE],
  ] as const) {
    it(`refuses an input that asks for ${name}`, () => {
      const tx = Transaction.fromPSBT(buildCollectionPsbt(draft).psbt);
      tx.updateInput(1, { sighashType: sighash });
      expect(() => reviewCollectionPsbt(tx.toPSBT(0), testRoot, policy)).toThrow(/input 1 .* only SIGHASH_ALL/);
    });
  }

  it('refuses a fee above its bound', () => {
    const greedy = buildCollectionPsbt({ ...draft, feeRate: 1_000n });
    expect(() => reviewCollectionPsbt(greedy.psbt, testRoot, policy)).toThrow(
      /fee \d+ is above this signer's bound 100000/,
    );
  });

  it("refuses another merchant's plan: its inputs name no key of this seed", () => {
    const other = funding(otherRoot, [10_000_000n]);
    const theirs = buildCollectionPsbt({
      ...draft,
      key: parseKeyDescriptor(descriptorOf(otherRoot)),
      inputs: other.inputs,
    });
    expect(() => reviewCollectionPsbt(theirs.psbt, testRoot, policy)).toThrow(
      /names no key of this seed \(master fingerprint 73c5da0a\)/,
    );
    // and its own seed signs it
    expect(signCollectionPsbt(theirs.psbt, otherRoot, policy).review.fee).toBeGreaterThan(0n);
  });

  it('builds nothing from a previous transaction that does not pay the key', () => {
    expect(() => buildCollectionPsbt({ ...draft, inputs: [{ ...paid.inputs[0]!, amount: 49_000_000n }] })).toThrow(
      /is not 49000000 to the key/,
    );
  });

  it('refuses with every reason at once, and SignerRefusal lists them', () => {
    const tx = Transaction.fromPSBT(buildCollectionPsbt({ ...draft, treasury: elsewhere }).psbt);
    tx.updateInput(0, { sighashType: SigHash.NONE });
    try {
      reviewCollectionPsbt(tx.toPSBT(0), testRoot, policy);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SignerRefusal);
      expect((error as SignerRefusal).reasons).toHaveLength(2);
    }
  });
});

describe('refund PSBTs', () => {
  const refund = { ...draft, candidates: paid.inputs, destination: elsewhere };
  it('take the fewest outputs that cover the refund and the fee; the change goes to the treasury', () => {
    const built = buildRefundPsbt({ ...refund, amount: 60_000_000n, feeFromRefund: false });
    expect(built.inputs.map((i) => i.vout)).toEqual([0, 1]);
    expect(built.pays).toBe(60_000_000n);
    expect(built.change).toBe(75_000_000n - 60_000_000n - built.fee);
    const outputs = reviewCollectionPsbt(built.psbt, testRoot, {
      ...policy,
      refund: { destination: elsewhere, pays: 60_000_000n },
    }).outputs;
    expect(outputs.map((o) => [o.address, o.amount, o.to])).toEqual([
      [elsewhere, 60_000_000n, 'refund'],
      [treasury, built.change, 'treasury'],
    ]);
  });
  it('take the fee from the refund when asked; change below the dust limit goes to the fee', () => {
    const fromRefund = buildRefundPsbt({ ...refund, amount: 50_000_000n, feeFromRefund: true });
    expect(fromRefund.inputs).toHaveLength(1);
    expect(fromRefund.pays + fromRefund.fee).toBe(50_000_000n);
    expect(fromRefund.change).toBe(0n);
    const dusty = buildRefundPsbt({ ...refund, amount: 49_999_800n, feeFromRefund: true });
    expect(dusty.change).toBe(0n);
    expect(dusty.pays + dusty.fee).toBe(50_000_000n);
  });
  it('refuse a refund the outputs do not cover, or one the fee would leave as dust', () => {
    expect(() => buildRefundPsbt({ ...refund, amount: 76_000_000n, feeFromRefund: false })).toThrow(/do not cover/);
    expect(() => buildRefundPsbt({ ...refund, amount: 600n, feeFromRefund: true })).toThrow(/dust limit/);
  });
  it('are refused by a signer that was not told of the refund', () => {
    const built = buildRefundPsbt({ ...refund, amount: 60_000_000n, feeFromRefund: false });
    expect(() => reviewCollectionPsbt(built.psbt, testRoot, policy)).toThrow(/neither the treasury/);
  });
});

describe('plan headers', () => {
  const signer = { network: 'litecoin', chain: 'mainnet' as const, masterFingerprint: PUBLIC_TEST_SEED_FINGERPRINT };
  it('the public test seed never signs a live mainnet plan; another seed never signs a test plan', () => {
    expect(planHeaderRefusals({ mode: 'live', network: 'litecoin', chain: 'mainnet' }, signer)).toEqual([
      expect.stringMatching(/public test seed/),
    ]);
    expect(planHeaderRefusals({ mode: 'test', network: 'litecoin', chain: 'mainnet' }, signer)).toEqual([]);
    expect(
      planHeaderRefusals(
        { mode: 'test', network: 'litecoin', chain: 'mainnet' },
        { ...signer, masterFingerprint: otherRoot.fingerprint },
      ),
    ).toEqual([expect.stringMatching(/test plan/)]);
    expect(planHeaderRefusals({ mode: 'live', network: 'bitcoin', chain: 'regtest' }, signer)).toHaveLength(2);
    // regtest coins have no value: the test seed signs the tests' live regtest plans
    expect(
      planHeaderRefusals({ mode: 'live', network: 'litecoin', chain: 'regtest' }, { ...signer, chain: 'regtest' }),
    ).toEqual([]);
  });
});
