/**
 * The gateway never receives a private key or a seed (docs/decisions/052). A merchant who pastes
 * one where an address belongs (a treasury, later a refund or collection request) is refused,
 * naming the field and never echoing or logging the value: an extended private key (any version:
 * the key data starts with a zero byte), a WIF private key, or a BIP 39 phrase whose checksum holds
 * (so twelve ordinary words are not taken for one).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, createBase58check } from '@scure/base';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { xrplBase58check } from '../chains';
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

/**
 * What Solana key material `value` is, or null: a secret key in base58 (64 bytes, as Phantom
 * exports it) or a keypair file's array of 64 numbers (solana-keygen). Asked only where a Solana
 * address belongs: a transaction signature is 64 bytes of base58 too, which a refund or a
 * collection may carry, so this is no part of keyMaterialIn's search of every field. A 32-byte
 * private seed cannot be told from an address; nothing can refuse that one.
 */
export function solanaKeyMaterialIn(value: string): string | null {
  const trimmed = value.trim();
  if (/^[1-9A-HJ-NP-Za-km-z]{80,90}$/.test(trimmed)) {
    try {
      if (base58.decode(trimmed).length === 64) return 'a Solana secret key';
    } catch {
      return null;
    }
  }
  if (/^\[\s*(\d{1,3}\s*,\s*){63}\d{1,3}\s*\]$/.test(trimmed)) return 'a Solana keypair';
  return null;
}

/** A family seed's payload: version 0x21 and 16 bytes of entropy ("s..."), or an Ed25519 seed's 3-byte prefix ("sEd..."). */
const XRPL_SEED_PREFIXES = [[0x21], [0x01, 0xe1, 0x4b]];
const XRPL_SEED_ENTROPY = 16;

/**
 * What XRP Ledger key material `value` is, or null: a family seed (`s...`, either key type, its
 * checksum holding), a private key in hex (32 bytes, bare or with the `00` or `ED` a wallet
 * library prefixes), or a seed's secret numbers (eight groups of six digits, each group's last
 * digit its check, as wallets write them down). Asked only where an XRP Ledger address belongs:
 * a transaction id is 32 bytes of hex too, which a refund may carry.
 */
export function xrplKeyMaterialIn(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.startsWith('s')) {
    const payload = xrplBase58check(trimmed);
    const seed = XRPL_SEED_PREFIXES.some(
      (prefix) =>
        payload?.length === prefix.length + XRPL_SEED_ENTROPY && prefix.every((byte, i) => payload[i] === byte),
    );
    if (seed) return 'an XRP Ledger seed';
  }
  if (/^((00|ed)?[0-9a-f]{64})$/i.test(trimmed)) return 'an XRP Ledger private key';
  const groups = trimmed.split(/[\s-]+/);
  if (groups.length === 8 && groups.every((group, i) => /^\d{6}$/.test(group) && secretNumberChecks(group, i)))
    return "an XRP Ledger seed's secret numbers";
  return null;
}

/** A secret number's sixth digit: its first five as a number times its position's odd factor, modulo 9. */
function secretNumberChecks(group: string, position: number): boolean {
  return (Number(group.slice(0, 5)) * (position * 2 + 1)) % 9 === Number(group[5]);
}

/**
 * Throws KeyMaterialRefused for the first field of `fields` (strings, nested in objects and arrays:
 * `refund.address`, `items.0`) that holds key material. Walked without recursion, so that a body
 * nested thousands deep is searched, not a stack overflow.
 */
export function refuseKeyMaterial(fields: Record<string, unknown>, prefix = ''): void {
  // Each entry keeps its parent's place: a path is spelled only for the field refused.
  const pending: { name: string; parent: number; value: unknown }[] = [{ name: prefix, parent: -1, value: fields }];
  const pathOf = (at: number): string => {
    const names: string[] = [];
    for (let i = at; i >= 0; i = pending[i]!.parent) if (pending[i]!.name) names.unshift(pending[i]!.name);
    return names.join('.');
  };
  for (let next = 0; next < pending.length; next++) {
    const { value } = pending[next]!;
    if (typeof value === 'string') {
      const what = keyMaterialIn(value);
      if (what) throw new KeyMaterialRefused(pathOf(next), what);
    } else if (value && typeof value === 'object')
      for (const [name, inner] of Object.entries(value as Record<string, unknown>))
        pending.push({ name, parent: next, value: inner });
  }
}
