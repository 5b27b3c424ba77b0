/**
 * The steps of collecting one Tron deposit address's tokens, built by the gateway and checked by
 * the signer with the same rules (docs/decisions/086):
 *
 * - `activate`: a TransferContract from the merchant's resource account to the deposit address
 *   (an address that has only received TRC-20 tokens is no account yet, and energy cannot be
 *   delegated to it): 1 sun, or the TRX its transfer will burn for bandwidth; the node burns the
 *   account creation fees from the resource account;
 * - `fund`: the same transfer carrying the TRX the token transfer will burn (no stake to delegate);
 * - `delegate`: a Stake 2.0 DelegateResourceContract of ENERGY, unlocked, from the resource account;
 * - `transfer`: the token's `transfer(treasury, amount)` (TriggerSmartContract), signed by the deposit key;
 * - `reclaim`: the UnDelegateResourceContract of what `delegate` lent;
 * - `sweep`: a plan of TRX itself (docs/decisions/113): a TransferContract of the deposit address's
 *   own TRX to the treasury, signed by the deposit key, its bandwidth the address's own.
 */
import { equalBytes } from '@noble/curves/utils.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { tronAddressOfBytes } from './address';
import { CONTRACT_TYPE, RESOURCE, decodeRawData, encodeRawData, type TronContract, type TronRawData } from './protobuf';
import { transactionId } from './signing';

/** The contract each step is, whatever a plan says. */
const STEP_CONTRACT = {
  activate: 'TransferContract',
  fund: 'TransferContract',
  delegate: 'DelegateResourceContract',
  transfer: 'TriggerSmartContract',
  reclaim: 'UnDelegateResourceContract',
  sweep: 'TransferContract',
} as const satisfies Record<string, keyof typeof CONTRACT_TYPE>;
export type TronStep = keyof typeof STEP_CONTRACT;

/** keccak256("transfer(address,uint256)")[0..4]. */
const TRANSFER_SELECTOR = 'a9059cbb';

/** `transfer(to, amount)` call data: the selector, the address's 20 bytes and the amount, each in a 32-byte word. */
export function transferCallData(to: Uint8Array, amount: bigint): Uint8Array {
  const word = (bytes: Uint8Array) => concatBytes(new Uint8Array(32 - bytes.length), bytes);
  return concatBytes(
    hexToBytes(TRANSFER_SELECTOR),
    word(to.subarray(1)),
    word(hexToBytes(amount.toString(16).padStart(64, '0'))),
  );
}

/** The block a transaction refers to (TAPOS): bytes 6-7 of its height and bytes 8-15 of its id. */
export interface RefBlock {
  height: number;
  /** The block id, 64 hex digits. */
  id: string;
  /** The block's time, ms. */
  timestamp: number;
}

function refBlockFields(ref: RefBlock): Pick<TronRawData, 'refBlockBytes' | 'refBlockHash'> {
  const height = hexToBytes(BigInt(ref.height).toString(16).padStart(16, '0'));
  return { refBlockBytes: height.subarray(6, 8), refBlockHash: hexToBytes(ref.id).subarray(8, 16) };
}

export interface BuiltTransaction {
  txID: string;
  rawDataHex: string;
}

export function buildTransaction(
  ref: RefBlock,
  contract: TronContract,
  times: { expiration: number; timestamp: number },
  feeLimit = 0n,
): BuiltTransaction {
  const raw = encodeRawData({
    ...refBlockFields(ref),
    refBlockNum: 0n,
    expiration: BigInt(times.expiration),
    timestamp: BigInt(times.timestamp),
    feeLimit,
    contract,
  });
  return { txID: transactionId(raw), rawDataHex: bytesToHex(raw) };
}

/** What the signer allows a step to do: every account is one it derived itself, or the treasury and token it pinned. */
export interface StepPolicy {
  /** The resource account's 21 bytes (the merchant's staked TRX), derived by the signer. */
  resource: Uint8Array;
  /** The deposit address of this item, derived by the signer at the item's path. */
  deposit: Uint8Array;
  treasury: Uint8Array;
  token: Uint8Array;
  /** Most sun an `activate` or `fund` step sends, and most a `transfer` may burn (its fee limit); a `sweep` pays the treasury, unbounded. */
  maxBurn: bigint;
}

/** What a checked step does, for the merchant to read. */
export interface StepReview {
  step: TronStep;
  txID: string;
  contract: TronContract;
  feeLimit: bigint;
  expiration: Date;
  /** The token amount a `transfer` moves. */
  amount: bigint | null;
}

const accountName = (bytes: Uint8Array) =>
  bytes.length === 21 ? tronAddressOfBytes(bytes) : `(${bytes.length} bytes)`;

/**
 * Decodes a step's raw data and checks it against the policy; answers the review, or the list of
 * reasons it is refused. Nothing of the plan's JSON is believed: the contract is read from the bytes.
 */
export function reviewStep(
  step: TronStep,
  txID: string,
  rawDataHex: string,
  policy: StepPolicy,
): { review: StepReview } | { refusals: string[] } {
  const refusals: string[] = [];
  let bytes: Uint8Array;
  try {
    bytes = hexToBytes(rawDataHex);
  } catch {
    return { refusals: [`${step} ${txID}: raw_data is not hex`] };
  }
  if (transactionId(bytes) !== txID.toLowerCase())
    refusals.push(`${step} ${txID}: the id is not sha256 of its raw_data (${transactionId(bytes)})`);
  let raw: TronRawData;
  try {
    raw = decodeRawData(bytes);
  } catch (error) {
    return { refusals: [...refusals, `${step} ${txID}: ${(error as Error).message}`] };
  }
  const c = raw.contract;
  const say = (reason: string) => refusals.push(`${step} ${txID}: ${reason}`);
  const expect = (what: string, found: Uint8Array, wanted: Uint8Array) => {
    if (!equalBytes(found, wanted)) say(`${what} is ${accountName(found)}, not ${accountName(wanted)}`);
  };
  if (c.type !== STEP_CONTRACT[step]) {
    say(`is a ${c.type}; a ${step} step is a ${STEP_CONTRACT[step]}`);
    return { refusals };
  }
  if (c.type !== 'TriggerSmartContract' && raw.feeLimit !== 0n) say(`sets a fee limit on a ${c.type}`);
  let amount: bigint | null = null;
  switch (c.type) {
    case 'TransferContract':
      if (step === 'sweep') {
        // The deposit's own TRX, to the pinned treasury only.
        expect('the sender', c.owner, policy.deposit);
        expect('the recipient', c.to, policy.treasury);
        if (c.amount <= 0n) say('sends nothing');
        break;
      }
      expect('the sender', c.owner, policy.resource);
      expect('the recipient', c.to, policy.deposit);
      if (c.amount <= 0n) say('sends nothing');
      if (c.amount > policy.maxBurn) say(`sends ${c.amount} sun, above the bound ${policy.maxBurn}`);
      break;
    case 'DelegateResourceContract':
      expect('the delegating account', c.owner, policy.resource);
      expect('the receiver', c.receiver, policy.deposit);
      if (c.resource !== RESOURCE.ENERGY) say(`delegates resource ${c.resource}, not ENERGY`);
      if (c.lock || c.lockPeriod !== 0n) say('locks the delegation (it could not be reclaimed at once)');
      if (c.balance <= 0n) say('delegates nothing');
      break;
    case 'UnDelegateResourceContract':
      expect('the delegating account', c.owner, policy.resource);
      expect('the receiver', c.receiver, policy.deposit);
      if (c.resource !== RESOURCE.ENERGY) say(`reclaims resource ${c.resource}, not ENERGY`);
      if (c.balance <= 0n) say('reclaims nothing');
      break;
    case 'TriggerSmartContract': {
      expect('the caller', c.owner, policy.deposit);
      expect('the contract', c.contract, policy.token);
      if (c.callValue !== 0n || c.callTokenValue !== 0n || c.tokenId !== 0n)
        say('sends TRX or a TRC-10 token with the call');
      const data = bytesToHex(c.data);
      if (data.length !== 8 + 128 || !data.startsWith(TRANSFER_SELECTOR)) {
        say(`calls ${data.slice(0, 8) || '(no data)'}, not transfer(address,uint256) (${TRANSFER_SELECTOR})`);
        break;
      }
      const toWord = data.slice(8, 72);
      if (!/^0{24}/.test(toWord)) say('transfer(address,...) with an address word of more than 20 bytes');
      expect('the token recipient', concatBytes(Uint8Array.of(0x41), hexToBytes(toWord.slice(24))), policy.treasury);
      amount = BigInt(`0x${data.slice(72)}`);
      if (amount <= 0n) say('transfers nothing');
      if (raw.feeLimit > policy.maxBurn) say(`allows ${raw.feeLimit} sun of fees, above the bound ${policy.maxBurn}`);
      break;
    }
  }
  if (refusals.length > 0) return { refusals };
  return {
    review: {
      step,
      txID: txID.toLowerCase(),
      contract: c,
      feeLimit: raw.feeLimit,
      expiration: new Date(Number(raw.expiration)),
      amount,
    },
  };
}
