import 'server-only';
/**
 * XRP Ledger classic addresses ("r..."): 0x00 || RIPEMD160(SHA256(compressed key)), with the
 * Bitcoin-style 4-byte double-SHA256 checksum, in the XRP base58 alphabet. @scure/base's
 * createBase58check is hard-wired to the Bitcoin alphabet and v2 no longer exports its
 * checksum/chain helpers, so the checksum is composed here from @noble/hashes' sha256.
 * X-addresses (which pack a tag into the address) are not produced nor accepted.
 */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { base58xrp } from '@scure/base';

const ACCOUNT_ID_VERSION = 0x00;

const checksum = (data: Uint8Array): Uint8Array => sha256(sha256(data)).subarray(0, 4);

export function xrplAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(Uint8Array.of(ACCOUNT_ID_VERSION), ripemd160(sha256(publicKey)));
  return base58xrp.encode(concatBytes(payload, checksum(payload)));
}

export function isValidXrplAddress(address: string): boolean {
  let raw: Uint8Array;
  try {
    raw = base58xrp.decode(address);
  } catch {
    return false;
  }
  if (raw.length !== 25 || raw[0] !== ACCOUNT_ID_VERSION) return false;
  const expected = checksum(raw.subarray(0, 21));
  return expected.every((byte, i) => byte === raw[21 + i]);
}
