/**
 * The protobuf wire format of a Tron transaction's `raw_data`, as java-tron serialises it
 * (protocol/Tron.proto `Transaction.raw`, `Transaction.Contract`, and the four contracts of
 * protocol/core/contract: balance_contract.proto, smart_contract.proto), written and read here
 * without a protobuf library. Only what a collection plan uses: TransferContract,
 * DelegateResourceContract, UnDelegateResourceContract and TriggerSmartContract, one contract per
 * transaction. The reader is strict: an unknown field, a field twice, a wrong wire type or trailing
 * bytes is an error, so that what the signer shows is all that the bytes say.
 */

/** Contract types (Tron.proto `Transaction.Contract.ContractType`). */
export const CONTRACT_TYPE = {
  TransferContract: 1,
  TriggerSmartContract: 31,
  DelegateResourceContract: 57,
  UnDelegateResourceContract: 58,
} as const;
export type TronContractType = keyof typeof CONTRACT_TYPE;

/** `ResourceCode` (common.proto). */
export const RESOURCE = { BANDWIDTH: 0, ENERGY: 1 } as const;

/** A 21-byte account: 0x41 and the 20-byte hash. */
export type AccountBytes = Uint8Array;

export type TronContract =
  | { type: 'TransferContract'; owner: AccountBytes; to: AccountBytes; amount: bigint }
  | {
      type: 'DelegateResourceContract';
      owner: AccountBytes;
      resource: number;
      balance: bigint;
      receiver: AccountBytes;
      lock: boolean;
      lockPeriod: bigint;
    }
  | {
      type: 'UnDelegateResourceContract';
      owner: AccountBytes;
      resource: number;
      balance: bigint;
      receiver: AccountBytes;
    }
  | {
      type: 'TriggerSmartContract';
      owner: AccountBytes;
      contract: AccountBytes;
      callValue: bigint;
      data: Uint8Array;
      callTokenValue: bigint;
      tokenId: bigint;
    };

export interface TronRawData {
  refBlockBytes: Uint8Array;
  refBlockNum: bigint;
  refBlockHash: Uint8Array;
  /** Milliseconds since 1970. */
  expiration: bigint;
  timestamp: bigint;
  /** Most sun a contract call may burn for energy; 0n for the others. */
  feeLimit: bigint;
  contract: TronContract;
}

export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

// ---- writing ----

function varint(value: bigint): number[] {
  // int64 fields: a negative value is its two's complement on 64 bits (ten bytes).
  let v = value < 0n ? (1n << 64n) + value : value;
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return out;
}

class Writer {
  private readonly bytes: number[] = [];
  varintField(field: number, value: bigint | number | boolean): this {
    const v = typeof value === 'boolean' ? (value ? 1n : 0n) : BigInt(value);
    // proto3: a field at its default value is not written.
    if (v === 0n) return this;
    this.bytes.push(...varint(BigInt(field << 3)), ...varint(v));
    return this;
  }
  bytesField(field: number, value: Uint8Array | string): this {
    const data = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    if (data.length === 0) return this;
    this.bytes.push(...varint(BigInt((field << 3) | 2)), ...varint(BigInt(data.length)), ...data);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

function encodeParameter(c: TronContract): Uint8Array {
  const w = new Writer();
  switch (c.type) {
    case 'TransferContract':
      return w.bytesField(1, c.owner).bytesField(2, c.to).varintField(3, c.amount).done();
    case 'DelegateResourceContract':
      return w
        .bytesField(1, c.owner)
        .varintField(2, c.resource)
        .varintField(3, c.balance)
        .bytesField(4, c.receiver)
        .varintField(5, c.lock)
        .varintField(6, c.lockPeriod)
        .done();
    case 'UnDelegateResourceContract':
      return w
        .bytesField(1, c.owner)
        .varintField(2, c.resource)
        .varintField(3, c.balance)
        .bytesField(4, c.receiver)
        .done();
    case 'TriggerSmartContract':
      return w
        .bytesField(1, c.owner)
        .bytesField(2, c.contract)
        .varintField(3, c.callValue)
        .bytesField(4, c.data)
        .varintField(5, c.callTokenValue)
        .varintField(6, c.tokenId)
        .done();
  }
}

const typeUrl = (type: TronContractType) => `type.googleapis.com/protocol.${type}`;

export function encodeRawData(raw: TronRawData): Uint8Array {
  const any = new Writer()
    .bytesField(1, typeUrl(raw.contract.type))
    .bytesField(2, encodeParameter(raw.contract))
    .done();
  const contract = new Writer().varintField(1, CONTRACT_TYPE[raw.contract.type]).bytesField(2, any).done();
  return new Writer()
    .bytesField(1, raw.refBlockBytes)
    .varintField(3, raw.refBlockNum)
    .bytesField(4, raw.refBlockHash)
    .varintField(8, raw.expiration)
    .bytesField(11, contract)
    .varintField(14, raw.timestamp)
    .varintField(18, raw.feeLimit)
    .done();
}

/** `Transaction { raw raw_data = 1; repeated bytes signature = 2; }`, as /wallet/broadcasthex takes it. */
export function encodeSignedTransaction(rawData: Uint8Array, signatures: readonly Uint8Array[]): Uint8Array {
  const w = new Writer().bytesField(1, rawData);
  for (const s of signatures) w.bytesField(2, s);
  return w.done();
}

// ---- reading ----

type Value = { wire: 0; value: bigint } | { wire: 2; value: Uint8Array };

/** Every field of one message, by number; a field twice is refused (none of ours is repeated). */
function readFields(bytes: Uint8Array, what: string): Map<number, Value[]> {
  const fields = new Map<number, Value[]>();
  let at = 0;
  const readVarint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (at >= bytes.length) throw new ProtobufError(`${what}: truncated varint`);
      const byte = bytes[at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
    throw new ProtobufError(`${what}: varint too long`);
  };
  while (at < bytes.length) {
    const key = readVarint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let value: Value;
    if (wire === 0) value = { wire, value: readVarint() };
    else if (wire === 2) {
      const length = Number(readVarint());
      if (at + length > bytes.length) throw new ProtobufError(`${what}: field ${field} runs past the end`);
      value = { wire, value: bytes.slice(at, at + length) };
      at += length;
    } else throw new ProtobufError(`${what}: field ${field} has wire type ${wire}, which no field here uses`);
    const list = fields.get(field) ?? [];
    if (list.length > 0) throw new ProtobufError(`${what}: field ${field} appears twice`);
    list.push(value);
    fields.set(field, list);
  }
  return fields;
}

/** Reads a message whose fields are all known: `schema` maps each field number to its wire type. */
function readMessage(
  bytes: Uint8Array,
  what: string,
  schema: Record<number, 0 | 2>,
): { int(field: number): bigint; bytes(field: number): Uint8Array } {
  const fields = readFields(bytes, what);
  for (const [field, [value]] of fields) {
    const wire = schema[field];
    if (wire === undefined) throw new ProtobufError(`${what}: unexpected field ${field}`);
    if (value!.wire !== wire) throw new ProtobufError(`${what}: field ${field} has the wrong wire type`);
  }
  return {
    int: (field) => {
      const v = fields.get(field)?.[0];
      return v?.wire === 0 ? int64(v.value) : 0n;
    },
    bytes: (field) => {
      const v = fields.get(field)?.[0];
      return v?.wire === 2 ? v.value : new Uint8Array();
    },
  };
}

/** A varint read as int64 (two's complement). */
const int64 = (v: bigint) => (v >= 1n << 63n ? v - (1n << 64n) : v);

function decodeParameter(type: TronContractType, bytes: Uint8Array): TronContract {
  switch (type) {
    case 'TransferContract': {
      const m = readMessage(bytes, type, { 1: 2, 2: 2, 3: 0 });
      return { type, owner: m.bytes(1), to: m.bytes(2), amount: m.int(3) };
    }
    case 'DelegateResourceContract': {
      const m = readMessage(bytes, type, { 1: 2, 2: 0, 3: 0, 4: 2, 5: 0, 6: 0 });
      return {
        type,
        owner: m.bytes(1),
        resource: Number(m.int(2)),
        balance: m.int(3),
        receiver: m.bytes(4),
        lock: m.int(5) !== 0n,
        lockPeriod: m.int(6),
      };
    }
    case 'UnDelegateResourceContract': {
      const m = readMessage(bytes, type, { 1: 2, 2: 0, 3: 0, 4: 2 });
      return { type, owner: m.bytes(1), resource: Number(m.int(2)), balance: m.int(3), receiver: m.bytes(4) };
    }
    case 'TriggerSmartContract': {
      const m = readMessage(bytes, type, { 1: 2, 2: 2, 3: 0, 4: 2, 5: 0, 6: 0 });
      return {
        type,
        owner: m.bytes(1),
        contract: m.bytes(2),
        callValue: m.int(3),
        data: m.bytes(4),
        callTokenValue: m.int(5),
        tokenId: m.int(6),
      };
    }
  }
}

/**
 * Decodes `raw_data` bytes: exactly one contract of the four types, nothing else (no `auths`,
 * `data`, `scripts`, permission id or provider). Throws ProtobufError naming what is wrong.
 */
export function decodeRawData(bytes: Uint8Array): TronRawData {
  const raw = readMessage(bytes, 'raw_data', { 1: 2, 3: 0, 4: 2, 8: 0, 11: 2, 14: 0, 18: 0 });
  // A second contract is refused by readMessage (field 11 twice).
  if (raw.bytes(11).length === 0) throw new ProtobufError('raw_data holds no contract');
  const contract = readMessage(raw.bytes(11), 'contract', { 1: 0, 2: 2 });
  const number = Number(contract.int(1));
  const type = (Object.keys(CONTRACT_TYPE) as TronContractType[]).find((t) => CONTRACT_TYPE[t] === number);
  if (!type) throw new ProtobufError(`contract type ${number} is none of ${Object.keys(CONTRACT_TYPE).join(', ')}`);
  const any = readMessage(contract.bytes(2), 'parameter', { 1: 2, 2: 2 });
  const url = new TextDecoder().decode(any.bytes(1));
  if (url !== typeUrl(type)) throw new ProtobufError(`contract type ${type} carries a parameter of type ${url}`);
  return {
    refBlockBytes: raw.bytes(1),
    refBlockNum: raw.int(3),
    refBlockHash: raw.bytes(4),
    expiration: raw.int(8),
    timestamp: raw.int(14),
    feeLimit: raw.int(18),
    contract: decodeParameter(type, any.bytes(2)),
  };
}

/**
 * Reads a signed `Transaction` (field 1 the raw_data, field 2 one signature), as /wallet/broadcasthex
 * takes it: anything else (a second signature, a `ret`) is refused. Throws ProtobufError.
 */
export function decodeSignedTransaction(bytes: Uint8Array): { rawData: Uint8Array; signature: Uint8Array } {
  const m = readMessage(bytes, 'Transaction', { 1: 2, 2: 2 });
  const rawData = m.bytes(1);
  const signature = m.bytes(2);
  if (rawData.length === 0 || signature.length === 0)
    throw new ProtobufError('Transaction: needs its raw_data and one signature');
  return { rawData, signature };
}
