/**
 * The gateway never receives a private key or a seed (docs/decisions/052). A merchant who pastes
 * one where an address belongs (a treasury, later a refund or collection request) is refused,
 * naming the field and never echoing or logging the value: an extended private key (any version:
 * the key data starts with a zero byte), a WIF private key, or a BIP 39 phrase whose checksum holds
 * (so twelve ordinary words are not taken for one).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { KeyMaterialRefused } from './errors';

const base58check = createBase58check(sha256);
const PHRASE_LENGTHS = new Set([12, 15, 18, 21, 24]);

/** What kind of key material `value` is, or null for none. */
export function keyMaterialIn(value: string): string | null {
  const trimmed = value.trim();
  if (/^[1-9A-HJ-NP-Za-km-z]{50,120}$/.test(trimmed)) {
    let raw: Uint8Array | null;
    try {
      raw = base58check.decode(trimmed);
    } catch {
      raw = null;
    }
    if (raw?.length === 78 && raw[45] === 0) return 'an extended private key';
    if (raw && (raw.length === 33 || (raw.length === 34 && raw[33] === 0x01))) return 'a WIF private key';
  }
  const words = trimmed.toLowerCase().split(/\s+/);
  if (PHRASE_LENGTHS.has(words.length) && validateMnemonic(words.join(' '), wordlist))
    return 'a BIP 39 recovery phrase';
  return null;
}

/** Throws KeyMaterialRefused for the first field of `fields` (strings, nested) that holds key material. */
export function refuseKeyMaterial(fields: Record<string, unknown>, prefix = ''): void {
  for (const [name, value] of Object.entries(fields)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (typeof value === 'string') {
      const what = keyMaterialIn(value);
      if (what) throw new KeyMaterialRefused(path, what);
    } else if (value && typeof value === 'object') refuseKeyMaterial(value as Record<string, unknown>, path);
  }
}
