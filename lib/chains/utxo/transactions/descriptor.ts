/**
 * An extended public key with its origin, as an output descriptor (BIP 380-382):
 * `wpkh([d34db33f/84h/2h/0h]xpub.../0/*)`, optionally followed by its `#checksum`. A PSBT must name
 * each input's master fingerprint and full derivation path (BIP 174), which an xpub alone does not
 * carry; the descriptor does, and is what Bitcoin Core, Sparrow and hardware wallets export.
 * Only public keys: an extended private key is refused.
 */
import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';

export const HARDENED = 0x80000000;
const base58check = createBase58check(sha256);

export interface KeyDescriptor {
  /** The output script of every address: native segwit (`wpkh`) or P2PKH (`pkh`). */
  script: 'wpkh' | 'pkh';
  /** The first four bytes of HASH160 of the master public key, as BIP 32 defines it. */
  masterFingerprint: number;
  /** The path from the master key to the extended key given, e.g. [84', 2', 0']. */
  accountPath: number[];
  /** The extended key as given (its own version bytes: xpub, tpub, zpub, Ltub...). */
  accountXpub: string;
  /** The external chain (`.../0`) the deposit addresses are children of. */
  chain: HDKey;
  /** The external chain's extended key, serialized with the version of the key given. */
  chainXpub: string;
  /** The descriptor in canonical form (`h` for hardened), with its checksum. */
  text: string;
}

const DESCRIPTOR = /^(wpkh|pkh)\(\[([0-9a-fA-F]{8})((?:\/\d+['hH]?)*)\]([1-9A-HJ-NP-Za-km-z]{100,120})\/0\/\*\)$/;

/** Parses a descriptor; throws an Error whose message says what is wrong (never echoing a private key). */
export function parseKeyDescriptor(input: string): KeyDescriptor {
  if (typeof input !== 'string' || input.length > 400)
    throw new Error('a descriptor is a string of at most 400 characters');
  const trimmed = input.trim();
  const hash = trimmed.indexOf('#');
  const body = hash === -1 ? trimmed : trimmed.slice(0, hash);
  if (hash !== -1 && descriptorChecksum(body) !== trimmed.slice(hash + 1))
    throw new Error('the descriptor checksum does not match (typo, or copied in part?)');
  const match = DESCRIPTOR.exec(body);
  if (!match && /^(wpkh|pkh)\([^[]/.test(body))
    throw new Error(
      'the key origin is missing: write [fingerprint/path] before the key, e.g. wpkh([d34db33f/84h/2h/0h]xpub.../0/*); a PSBT needs the master fingerprint and full path',
    );
  if (!match)
    throw new Error(
      'expected wpkh([fingerprint/path]xpub.../0/*) or pkh([fingerprint/path]xpub.../0/*), e.g. wpkh([d34db33f/84h/2h/0h]xpub.../0/*)',
    );
  const [, script, fingerprintHex, pathText, key] = match as unknown as [
    string,
    'wpkh' | 'pkh',
    string,
    string,
    string,
  ];
  const accountPath = pathText
    .split('/')
    .slice(1)
    .map((step) => {
      const hardened = /['hH]$/.test(step);
      const index = Number(hardened ? step.slice(0, -1) : step);
      if (!Number.isSafeInteger(index) || index >= HARDENED) throw new Error(`path step ${step} is out of range`);
      return hardened ? index + HARDENED : index;
    });
  let raw: Uint8Array;
  try {
    raw = base58check.decode(key);
  } catch {
    throw new Error('the extended key is not valid base58check (typo or truncated?)');
  }
  if (raw.length !== 78) throw new Error('the extended key has the wrong length');
  if (raw[45] === 0) throw new Error('refusing an extended PRIVATE key: give the extended public key');
  const version = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getUint32(0, false);
  const account = HDKey.fromExtendedKey(key, { public: version, private: 0 });
  if (account.depth !== accountPath.length)
    throw new Error(`the key is at depth ${account.depth} but its origin names ${accountPath.length} steps`);
  const chain = account.deriveChild(0);
  const masterFingerprint = Number.parseInt(fingerprintHex, 16) >>> 0;
  const canonical = `${script}([${fingerprintHex.toLowerCase()}${accountPath.map((i) => `/${formatStep(i)}`).join('')}]${key}/0/*)`;
  return {
    script,
    masterFingerprint,
    accountPath,
    accountXpub: key,
    chain,
    chainXpub: chain.publicExtendedKey,
    text: `${canonical}#${descriptorChecksum(canonical)}`,
  };
}

function formatStep(index: number): string {
  return index >= HARDENED ? `${index - HARDENED}h` : String(index);
}

/** A path as wallets write it: `m/84'/2'/0'/0/7`. */
export function formatPath(path: readonly number[]): string {
  return ['m', ...path.map((i) => (i >= HARDENED ? `${i - HARDENED}'` : String(i)))].join('/');
}

/** The full path of deposit address `index`: the account's origin, the external chain 0, the index. */
export function depositPath(descriptor: Pick<KeyDescriptor, 'accountPath'>, index: number): number[] {
  return [...descriptor.accountPath, 0, index];
}

/** A master fingerprint as eight hex digits. */
export function fingerprintHex(fingerprint: number): string {
  return (fingerprint >>> 0).toString(16).padStart(8, '0');
}

// The descriptor checksum of Bitcoin Core's descriptor.cpp (DescriptorChecksum), a BCH code over
// the descriptor's characters in groups.
const INPUT_CHARSET =
  '0123456789()[],\'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#"\\ ';
const CHECKSUM_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATORS = [0xf5dee51989n, 0xa9fdca3312n, 0x1bab10e32dn, 0x3706b1677an, 0x644d626ffdn];

function polymod(c: bigint, value: number): bigint {
  const top = c >> 35n;
  let next = ((c & 0x7ffffffffn) << 5n) ^ BigInt(value);
  GENERATORS.forEach((generator, i) => {
    if ((top >> BigInt(i)) & 1n) next ^= generator;
  });
  return next;
}

/** The eight-character checksum of a descriptor (without its `#`); throws on a character descriptors do not use. */
export function descriptorChecksum(descriptor: string): string {
  let c = 1n;
  let group = 0;
  let count = 0;
  for (const character of descriptor) {
    const position = INPUT_CHARSET.indexOf(character);
    if (position === -1) throw new Error('the descriptor holds a character descriptors never use');
    c = polymod(c, position & 31);
    group = group * 3 + (position >> 5);
    if (++count === 3) {
      c = polymod(c, group);
      group = 0;
      count = 0;
    }
  }
  if (count > 0) c = polymod(c, group);
  for (let j = 0; j < 8; j++) c = polymod(c, 0);
  c ^= 1n;
  let out = '';
  for (let j = 0; j < 8; j++) out += CHECKSUM_CHARSET[Number((c >> BigInt(5 * (7 - j))) & 31n)];
  return out;
}
