/**
 * Tron transactions without a node: the raw_data encoding against a transaction printed by
 * java-tron's wallet-cli in its documentation, signatures recovered to their account, and each
 * refusal of a step rewritten by a gateway (another contract type, another method, another
 * recipient, a lock, a fee limit above the bound).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  RESOURCE,
  buildTransaction,
  decodeRawData,
  encodeRawData,
  reviewStep,
  signTransactionId,
  signerOf,
  transactionId,
  transferCallData,
  tronAccountBytes,
  tronAddressBytes,
  type StepPolicy,
  type TronContract,
} from '.';

// tronprotocol.github.io/documentation-en/clients/wallet-cli (DelegateResource example): the
// transaction as wallet-cli printed it before signing.
const WALLET_CLI_DELEGATE =
  '0a02020c220854e32e95d11894f840f88bbaf3e5305a710839126d0a35747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e44656c65676174655265736f75726365436f6e747261637412340a1541ce8a0cf0c16d48bcf22825f6053248df653c89ca100118c0843d221541fd49eda0f23ff7ec1d03b52c3a45991c24cd440e70a5bbb6f3e530';

const key = (n: number) => {
  const secret = new Uint8Array(32);
  secret[31] = n;
  return { secret, account: tronAccountBytes(secp256k1.getPublicKey(secret)) };
};
const resource = key(1);
const deposit = key(2);
const treasury = key(3).account;
const token = key(4).account;
const stranger = key(5).account;
const policy: StepPolicy = {
  resource: resource.account,
  deposit: deposit.account,
  treasury,
  token,
  maxBurn: 50_000_000n,
};
const ref = { height: 1234, id: 'ab'.repeat(32), timestamp: 1_700_000_000_000 };
const times = { expiration: 1_700_000_060_000, timestamp: 1_700_000_000_000 };

const delegate = (
  overrides: Partial<Extract<TronContract, { type: 'DelegateResourceContract' }>> = {},
): TronContract => ({
  type: 'DelegateResourceContract',
  owner: resource.account,
  resource: RESOURCE.ENERGY,
  balance: 7_000_000_000n,
  receiver: deposit.account,
  lock: false,
  lockPeriod: 0n,
  ...overrides,
});
const transfer = (data = transferCallData(treasury, 25_500_000n), contract = token): TronContract => ({
  type: 'TriggerSmartContract',
  owner: deposit.account,
  contract,
  callValue: 0n,
  data,
  callTokenValue: 0n,
  tokenId: 0n,
});

describe('tron raw_data', () => {
  it("encodes a DelegateResourceContract byte for byte as java-tron's wallet-cli printed it", () => {
    const decoded = decodeRawData(hexToBytes(WALLET_CLI_DELEGATE));
    expect(decoded.contract).toMatchObject({
      type: 'DelegateResourceContract',
      resource: RESOURCE.ENERGY,
      balance: 1_000_000n,
      lock: false,
    });
    expect(bytesToHex(decoded.contract.owner)).toBe(bytesToHex(tronAddressBytes('TUoHaVjx7n5xz8LwPRDckgFrDWhMhuSuJM')));
    expect(decoded.expiration).toBe(1676621547000n);
    expect(bytesToHex(encodeRawData(decoded))).toBe(WALLET_CLI_DELEGATE);
  });

  it('refuses two contracts, an unknown field and a parameter of another type', () => {
    const raw = hexToBytes(WALLET_CLI_DELEGATE);
    const contract = raw.slice(raw.indexOf(0x5a), raw.indexOf(0x5a) + 2 + 0x71);
    expect(() => decodeRawData(new Uint8Array([...raw, ...contract]))).toThrow(/field 11 appears twice/);
    expect(() => decodeRawData(new Uint8Array([...raw, 0x50, 0x01]))).toThrow(/unexpected field 10/);
    const other = WALLET_CLI_DELEGATE.replace('0839', '0801'); // type 57 -> 1 with a DelegateResource parameter
    expect(() => decodeRawData(hexToBytes(other))).toThrow(/carries a parameter of type/);
  });

  it('signs the id; the signature recovers the account; txID is sha256 of raw_data', () => {
    const built = buildTransaction(ref, delegate(), times);
    expect(built.txID).toBe(transactionId(hexToBytes(built.rawDataHex)));
    const signature = signTransactionId(built.txID, resource.secret);
    expect(signature).toHaveLength(65);
    expect([27, 28]).toContain(signature[64]);
    expect(bytesToHex(signerOf(built.txID, signature)!)).toBe(bytesToHex(resource.account));
  });
});

describe('a step as the signer reviews it', () => {
  const refusals = (step: Parameters<typeof reviewStep>[0], contract: TronContract, feeLimit = 0n) => {
    const built = buildTransaction(ref, contract, times, feeLimit);
    const answer = reviewStep(step, built.txID, built.rawDataHex, policy);
    return 'refusals' in answer ? answer.refusals.join('\n') : '';
  };

  it('accepts the four contracts of a collection', () => {
    expect(
      refusals('activate', { type: 'TransferContract', owner: resource.account, to: deposit.account, amount: 1n }),
    ).toBe('');
    expect(refusals('delegate', delegate())).toBe('');
    expect(refusals('transfer', transfer(), 30_000_000n)).toBe('');
    expect(
      refusals('reclaim', {
        type: 'UnDelegateResourceContract',
        owner: resource.account,
        resource: RESOURCE.ENERGY,
        balance: 7_000_000_000n,
        receiver: deposit.account,
      }),
    ).toBe('');
  });

  it('refuses another contract type, method, token, recipient, a lock and a fee limit above the bound', () => {
    expect(
      refusals('delegate', { type: 'TransferContract', owner: resource.account, to: stranger, amount: 1n }),
    ).toMatch(/is a TransferContract; a delegate step is a DelegateResourceContract/);
    const approve = hexToBytes(`095ea7b3${bytesToHex(transferCallData(stranger, 1n)).slice(8)}`);
    expect(refusals('transfer', transfer(approve), 1n)).toMatch(/calls 095ea7b3, not transfer/);
    expect(refusals('transfer', transfer(transferCallData(stranger, 5n)), 1n)).toMatch(/the token recipient is T/);
    expect(refusals('transfer', transfer(undefined, stranger), 1n)).toMatch(/the contract is T/);
    expect(refusals('transfer', transfer(), 50_000_001n)).toMatch(/above the bound/);
    expect(refusals('delegate', delegate({ receiver: stranger }))).toMatch(/the receiver is/);
    expect(refusals('delegate', delegate({ lock: true, lockPeriod: 28_800n }))).toMatch(/locks the delegation/);
    expect(refusals('delegate', delegate({ resource: RESOURCE.BANDWIDTH }))).toMatch(/not ENERGY/);
    expect(
      refusals('fund', { type: 'TransferContract', owner: resource.account, to: deposit.account, amount: 50_000_001n }),
    ).toMatch(/above the bound/);
  });

  it("a sweep sends the deposit's own TRX to the treasury, any amount, and nowhere else", () => {
    const sweep = (owner: Uint8Array, to: Uint8Array, amount: bigint): TronContract => ({
      type: 'TransferContract',
      owner,
      to,
      amount,
    });
    // Above maxBurn: the treasury is the only recipient, so the amount is not bounded.
    expect(refusals('sweep', sweep(deposit.account, treasury, 900_000_000n))).toBe('');
    expect(refusals('sweep', sweep(deposit.account, stranger, 5n))).toMatch(/the recipient is T\w+, not T/);
    expect(refusals('sweep', sweep(resource.account, treasury, 5n))).toMatch(/the sender is T\w+, not T/);
    expect(refusals('sweep', sweep(deposit.account, treasury, 0n))).toMatch(/sends nothing/);
    expect(refusals('sweep', delegate())).toMatch(/a sweep step is a TransferContract/);
  });

  it('refuses a txID that is not the hash of the raw data', () => {
    const built = buildTransaction(ref, delegate(), times);
    const answer = reviewStep('delegate', '00'.repeat(32), built.rawDataHex, policy);
    expect('refusals' in answer && answer.refusals[0]).toMatch(/not sha256 of its raw_data/);
  });
});
