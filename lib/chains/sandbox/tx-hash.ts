import 'server-only';
/**
 * Transaction and block hashes of the sandbox ledger, in each network's real format, so that
 * what test mode shows (find-tx, the payment page, webhooks) looks exactly like a real chain's:
 *   utxo (bitcoin, litecoin, bitcoincash, dogecoin): 64 lower-case hex, no prefix (txid);
 *   evm: "0x" + 64 lower-case hex;
 *   tron: 64 lower-case hex, no prefix;
 *   xrpl: 64 UPPER-case hex (as rippled prints transaction and ledger hashes);
 *   solana: base58, a transaction's signature of 64 bytes and a block's hash of 32 (case matters).
 * Elsewhere block hashes use the same format as the network's transaction hashes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import type { Network } from '../../catalog';
import { base58Bytes } from '../solana/address';

const PATTERNS: Record<Exclude<Network['family'], 'solana'>, RegExp> = {
  utxo: /^[0-9a-f]{64}$/,
  evm: /^0x[0-9a-f]{64}$/,
  tron: /^[0-9a-f]{64}$/,
  xrpl: /^[0-9A-F]{64}$/,
};

/** 32 bytes (64 hex digits, any case) in the network's hash format. */
export function formatHash(network: Network, hex: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`a hash is 64 hex digits, got "${hex}"`);
  switch (network.family) {
    case 'utxo':
    case 'tron':
      return hex.toLowerCase();
    case 'evm':
      return `0x${hex.toLowerCase()}`;
    case 'xrpl':
      return hex.toUpperCase();
    case 'solana':
      return base58.encode(Buffer.from(hex, 'hex'));
  }
  throw new Error(`No hash format for network "${network.name}" (${String(network.family)})`);
}

/** A fresh random transaction hash of the network (on Solana a signature: 64 bytes). */
export function randomTxHash(network: Network): string {
  if (network.family === 'solana') return base58.encode(randomBytes(64));
  return formatHash(network, randomBytes(32).toString('hex'));
}

/** A fresh random block hash of the network. */
export function randomBlockHash(network: Network): string {
  return formatHash(network, randomBytes(32).toString('hex'));
}

/** The fixed hash of the network's sandbox genesis block (height 0): the same in every database. */
export function genesisHash(network: Network): string {
  return formatHash(network, createHash('sha256').update(`sandbox genesis block of ${network.name}`).digest('hex'));
}

/** The all-zero hash: the parent of the genesis block. */
export function zeroHash(network: Network): string {
  return formatHash(network, '0'.repeat(64));
}

/** True when `hash` is a transaction (or block) hash in the network's exact format. */
export function isTxHash(network: Network, hash: string): boolean {
  if (network.family === 'solana') return base58Bytes(hash, 64) !== null || base58Bytes(hash, 32) !== null;
  return typeof hash === 'string' && PATTERNS[network.family].test(hash);
}

/**
 * A user-typed hash in the network's canonical case (hex is case-insensitive; the ledger stores
 * the canonical form), or undefined when it is not a hash of the network at all.
 */
export function normalizeTxHash(network: Network, hash: string): string | undefined {
  if (typeof hash !== 'string') return undefined;
  // base58 has one spelling: a signature is taken as typed, or not at all.
  if (network.family === 'solana') return isTxHash(network, hash) ? hash : undefined;
  const bare = network.family === 'evm' ? hash.replace(/^0[xX]/, '') : hash;
  if (!/^[0-9a-fA-F]{64}$/.test(bare)) return undefined;
  return formatHash(network, bare);
}
