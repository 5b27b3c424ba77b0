import 'server-only';
/**
 * XRP Ledger classic addresses ("r..."): 0x00 || RIPEMD160(SHA256(compressed key)), with the
 * Bitcoin-style 4-byte double-SHA256 checksum, in the XRP base58 alphabet. @scure/base's
 * createBase58check is hard-wired to the Bitcoin alphabet and v2 no longer exports its
 * checksum/chain helpers, so the checksum is composed here from @noble/hashes' sha256.
 * X-addresses (which pack a tag into the address) are not produced nor accepted: one is told
 * apart, so that a merchant giving one is told to give its classic address (docs/decisions/114).
 */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { base58xrp } from '@scure/base';

const ACCOUNT_ID_VERSION = 0x00;
/** The two version bytes of an X-address: the main network's ("X...") and a test network's ("T..."). */
const X_ADDRESS_PREFIXES = [
  [0x05, 0x44],
  [0x04, 0x93],
];

const checksum = (data: Uint8Array): Uint8Array => sha256(sha256(data)).subarray(0, 4);

export function xrplAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(Uint8Array.of(ACCOUNT_ID_VERSION), ripemd160(sha256(publicKey)));
  return base58xrp.encode(concatBytes(payload, checksum(payload)));
}

/**
 * The payload of `text` in the XRP base58 alphabet whose last 4 bytes are its checksum (an
 * address, an X-address, a family seed), without them; null when it is none.
 */
export function xrplBase58check(text: string): Uint8Array | null {
  if (typeof text !== 'string' || text.length > 64) return null;
  let raw: Uint8Array;
  try {
    raw = base58xrp.decode(text);
  } catch {
    return null;
  }
  if (raw.length <= 4) return null;
  const payload = raw.subarray(0, raw.length - 4);
  const expected = checksum(payload);
  return expected.every((byte, i) => byte === raw[payload.length + i]) ? payload : null;
}

export function isValidXrplAddress(address: string): boolean {
  const payload = xrplBase58check(address);
  return payload?.length === 21 && payload[0] === ACCOUNT_ID_VERSION;
}

/** Whether `text` is an X-address: its version bytes, the account, a flag and a 64-bit tag (XLS-5d). */
export function isXAddress(text: string): boolean {
  const payload = xrplBase58check(text);
  return (
    payload?.length === 31 &&
    X_ADDRESS_PREFIXES.some(([first, second]) => payload[0] === first && payload[1] === second)
  );
}
