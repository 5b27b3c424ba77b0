/**
 * Raw-transaction collections (dogecoin, bitcoincash; docs/decisions/118): the digests each coin
 * signs, checked against BIP 143's published vector and against a preimage serialized here by
 * hand, independently of btc-signer; a plan built, signed and its signatures verified as the
 * sandbox does; and the signer's refusals.
 */
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { hex } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { p2pkh } from '@scure/btc-signer/payment.js';
import { RawTx } from '@scure/btc-signer/script.js';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { describe, expect, it } from 'vitest';
import {
  RAW_MIN_FEE_RATE,
  addressOfOutputScript,
  buildRawCollection,
  rawSignatureHash,
  reviewRawCollection,
  signRawCollection,
  verifyInputSignatures,
  type RawCoin,
  type RawPlan,
} from '.';

const root = HDKey.fromMasterSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
);
const other = HDKey.fromMasterSeed(
  mnemonicToSeedSync('legal winner thank year wave sausage worth useful legal winner thank yellow'),
);
const H = 0x80000000;
const COIN_TYPE: Record<RawCoin, number> = { dogecoin: 3, bitcoincash: 145 };
const RAW = { allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true } as const;

const dsha256 = (...parts: Uint8Array[]) => sha256(sha256(concat(...parts)));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const le = (value: bigint | number, bytes: number) =>
  Uint8Array.from({ length: bytes }, (_, i) => Number((BigInt(value) >> BigInt(8 * i)) & 0xffn));
const varBytes = (b: Uint8Array) => concat(Uint8Array.of(b.length), b); // every script here is under 253 bytes
const outpoint = (i: { txid: Uint8Array; index: number }) => concat(Uint8Array.from(i.txid).reverse(), le(i.index, 4));

/** BIP 143's digest, serialized field by field from its text (SIGHASH_ALL-style: every input and output). */
function bip143ByHand(raw: Uint8Array, idx: number, scriptCode: Uint8Array, amount: bigint, hashType: number) {
  const tx = RawTx.decode(raw);
  const input = tx.inputs[idx]!;
  return dsha256(
    le(tx.version, 4),
    dsha256(...tx.inputs.map(outpoint)),
    dsha256(...tx.inputs.map((i) => le(i.sequence, 4))),
    outpoint(input),
    varBytes(scriptCode),
    le(amount, 8),
    le(input.sequence, 4),
    dsha256(...tx.outputs.map((o) => concat(le(o.amount, 8), varBytes(o.script)))),
    le(tx.lockTime, 4),
    le(hashType, 4),
  );
}

/** The legacy digest: the transaction with the spent script in input `idx`'s scriptSig, the others empty, and the hash type. */
function legacyByHand(raw: Uint8Array, idx: number, script: Uint8Array, hashType: number) {
  const tx = RawTx.decode(raw);
  return dsha256(
    le(tx.version, 4),
    Uint8Array.of(tx.inputs.length),
    ...tx.inputs.map((i, n) =>
      concat(outpoint(i), varBytes(n === idx ? script : new Uint8Array(0)), le(i.sequence, 4)),
    ),
    Uint8Array.of(tx.outputs.length),
    ...tx.outputs.map((o) => concat(le(o.amount, 8), varBytes(o.script))),
    le(tx.lockTime, 4),
    le(hashType, 4),
  );
}

// BIP 143, "Native P2WPKH": the unsigned transaction, input 1's scriptCode and amount, and its sigHash.
const BIP143_TX =
  '0100000002fff7f7881a8099afa6940d42d1e7f6362bec38171ea3edf433541db4e4ad969f0000000000eeffffffef51e1b804cc89d182d279655c3aa89e815b1b309fe287d9b2b55d57b90ec68a0100000000ffffffff02202cb206000000001976a9148280b37df378db99f66f85c95a783a76ac7a6d5988ac9093510d000000001976a9143bde42dbee7e4dbe6a21b2d50ce2f0167faa815988ac11000000';
const BIP143_SCRIPT_CODE = hex.decode('76a9141d0f172a0ecb48aee1be1f2687d2963ae33f71a188ac');
const BIP143_SIGHASH = 'c37af31116d1b27caf68aae9e3ac82f1477929014d5b917657d0eb49478cb670';

function accountOf(coin: RawCoin, seed = root) {
  const accountPath = [44 + H, COIN_TYPE[coin] + H, H];
  const account = seed.derive(`m/44'/${COIN_TYPE[coin]}'/0'`);
  return {
    script: 'pkh' as const,
    masterFingerprint: seed.fingerprint,
    accountPath,
    accountXpub: account.publicExtendedKey,
    chain: account.deriveChild(0),
  };
}

/** A previous transaction paying `amount` to the key at `index` of the test seed's account. */
function deposit(coin: RawCoin, index: number, amount: bigint, salt: number) {
  const previous = new Transaction({ allowUnknownInputs: true, version: 1 });
  previous.addOutput({ script: p2pkh(accountOf(coin).chain.deriveChild(index).publicKey!).script, amount });
  previous.addInput({ txid: new Uint8Array(32).fill(salt), index: 0, finalScriptSig: Uint8Array.of(0x51) });
  return { txid: previous.id, vout: 0, amount, index, previousTx: previous.hex };
}

const treasuryOf = (coin: RawCoin) =>
  addressOfOutputScript(coin, 'mainnet', p2pkh(accountOf(coin).chain.deriveChild(90_000).publicKey!).script)!;
const policyOf = (coin: RawCoin) => ({
  coin,
  chain: 'mainnet' as const,
  treasury: treasuryOf(coin),
  maxFee: 10_000_000n,
});

function planOf(coin: RawCoin): RawPlan {
  return buildRawCollection({
    coin,
    chain: 'mainnet',
    key: accountOf(coin),
    treasury: treasuryOf(coin),
    feeRate: 1n,
    inputs: [deposit(coin, 0, 50_000_000n, 1), deposit(coin, 7, 20_000_000n, 2)],
  }).plan;
}

describe('signature digests', () => {
  it("BIP 143's digest machinery gives the sigHash of BIP 143's native P2WPKH example", () => {
    const tx = Transaction.fromRaw(hex.decode(BIP143_TX), RAW);
    expect(hex.encode(tx.preimageWitnessV0(1, BIP143_SCRIPT_CODE, 0x01, 600_000_000n))).toBe(BIP143_SIGHASH);
    expect(hex.encode(bip143ByHand(hex.decode(BIP143_TX), 1, BIP143_SCRIPT_CODE, 600_000_000n, 0x01))).toBe(
      BIP143_SIGHASH,
    );
  });

  it('bitcoincash signs the BIP 143 digest with SIGHASH_ALL|FORKID (0x41, fork id 0), amount included', () => {
    const tx = Transaction.fromRaw(hex.decode(BIP143_TX), RAW);
    const spent = { script: BIP143_SCRIPT_CODE, amount: 600_000_000n };
    const digest = rawSignatureHash(tx, 1, 'bitcoincash', spent, 0x41);
    expect(hex.encode(digest)).toBe(
      hex.encode(bip143ByHand(hex.decode(BIP143_TX), 1, BIP143_SCRIPT_CODE, 600_000_000n, 0x41)),
    );
    expect(hex.encode(digest)).not.toBe(BIP143_SIGHASH);
    expect(hex.encode(rawSignatureHash(tx, 1, 'bitcoincash', { ...spent, amount: 600_000_001n }, 0x41))).not.toBe(
      hex.encode(digest),
    );
    expect(() => rawSignatureHash(tx, 1, 'bitcoincash', spent, 0x01)).toThrow(/FORKID/);
  });

  it("dogecoin signs the legacy digest: the spent script in the input's place, no amount", () => {
    const plan = planOf('dogecoin');
    const tx = Transaction.fromRaw(hex.decode(plan.transaction), RAW);
    for (const [i, input] of plan.inputs.entries()) {
      const script = hex.decode(input.script);
      expect(hex.encode(rawSignatureHash(tx, i, 'dogecoin', { script, amount: input.amount }, 0x01))).toBe(
        hex.encode(legacyByHand(hex.decode(plan.transaction), i, script, 0x01)),
      );
    }
  });
});

describe.each(['dogecoin', 'bitcoincash'] as const)('a %s raw collection', (coin) => {
  it('is built to the treasury at the coin’s fee floor, signed by the seed, and its signatures verify', () => {
    const built = buildRawCollection({
      coin,
      chain: 'mainnet',
      key: accountOf(coin),
      treasury: treasuryOf(coin),
      feeRate: 1n,
      inputs: [deposit(coin, 0, 50_000_000n, 1), deposit(coin, 7, 20_000_000n, 2)],
    });
    expect(built.feeRate).toBe(RAW_MIN_FEE_RATE[coin]);
    expect(RawTx.decode(hex.decode(built.plan.transaction)).version).toBe(coin === 'dogecoin' ? 1 : 2);
    expect(built.plan.inputs.map((i) => i.path)).toEqual([
      `m/44'/${COIN_TYPE[coin]}'/0'/0/0`,
      `m/44'/${COIN_TYPE[coin]}'/0'/0/7`,
    ]);
    const signed = signRawCollection(built.plan, root, policyOf(coin));
    expect(signed.review.fee).toBe(built.fee);
    expect(signed.review.outputs).toEqual([{ address: treasuryOf(coin), amount: built.sent, to: 'treasury' }]);
    const tx = Transaction.fromRaw(hex.decode(signed.rawTx), RAW);
    expect(tx.id).toBe(signed.txid);
    const spent = built.plan.inputs.map((i) => ({ script: hex.decode(i.script), amount: i.amount }));
    expect(verifyInputSignatures(tx, spent, coin)).toEqual([]);
    // Each coin's signature is its own: the other digest does not verify it.
    expect(verifyInputSignatures(tx, spent, coin === 'dogecoin' ? 'bitcoincash' : 'dogecoin')).not.toEqual([]);
  });

  it('is refused with every reason: another output, a wrong previous transaction or amount, another sighash, a fee above the bound', () => {
    const plan = planOf(coin);
    const stranger = addressOfOutputScript(coin, 'mainnet', p2pkh(other.derive("m/44'/0'/0'/0/0").publicKey!).script)!;
    const tx = Transaction.fromRaw(hex.decode(plan.transaction), RAW);
    tx.addOutput({ script: p2pkh(other.derive("m/44'/0'/0'/0/0").publicKey!).script, amount: 1_000n });
    expect(() =>
      reviewRawCollection({ ...plan, transaction: hex.encode(tx.unsignedTx) }, root, policyOf(coin)),
    ).toThrow(`output 1 pays ${stranger}, which is neither the treasury`);
    const [first, second] = plan.inputs;
    const wrongPrevious = { ...plan, inputs: [{ ...first!, previousTx: second!.previousTx }, second!] };
    expect(() => reviewRawCollection(wrongPrevious, root, policyOf(coin))).toThrow(
      `its previous transaction is ${second!.txid}, not ${first!.txid}`,
    );
    const wrongAmount = { ...plan, inputs: [{ ...first!, amount: first!.amount + 1n }, second!] };
    expect(() => reviewRawCollection(wrongAmount, root, policyOf(coin))).toThrow(
      `the plan says ${first!.amount + 1n}; its previous transaction pays ${first!.amount}`,
    );
    const otherSighash = { ...plan, inputs: [first!, { ...second!, sighash: coin === 'dogecoin' ? 0x81 : 0x01 }] };
    expect(() => reviewRawCollection(otherSighash, root, policyOf(coin))).toThrow(
      /input 1 .* asks for sighash 0x(81|1);/,
    );
    expect(() => reviewRawCollection(plan, root, { ...policyOf(coin), maxFee: 1n })).toThrow(
      "is above this signer's bound 1",
    );
    expect(() => signRawCollection(plan, other, policyOf(coin))).toThrow("the plan's key is not this seed's");
  });
});
