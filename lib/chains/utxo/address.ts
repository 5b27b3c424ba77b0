import 'server-only';
/**
 * Addresses of the Bitcoin-family networks. Deposit addresses are one type per network
 * (native segwit where the chain has it, P2PKH elsewhere); validation accepts every standard
 * mainnet address type of the network, since a valid address is not necessarily one we made.
 */
import { Address } from '@scure/btc-signer/payment.js';
import { NETWORK, hash160, type BTC_NETWORK } from '@scure/btc-signer/utils.js';
import cashaddr from 'cashaddrjs';
import type { AddressChain } from '../../catalog';

export type UtxoCoin = 'bitcoin' | 'litecoin' | 'bitcoincash' | 'dogecoin';

// Version bytes of the base58 addresses; `bech32: ''` turns bech32 decoding off in btc-signer,
// so a "doge1..." string is not taken for a segwit address (Dogecoin has no segwit).
const BITCOIN: BTC_NETWORK = NETWORK; // bc1, 1..., 3...
const LITECOIN: BTC_NETWORK = { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32, wif: 0xb0 }; // ltc1, L..., M...
const DOGECOIN: BTC_NETWORK = { bech32: '', pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e }; // D..., 9/A...
const CASHADDR_PREFIX = 'bitcoincash';

// Test chains (a live network configured with <NETWORK>_CHAIN=testnet|regtest, e.g. the tests'
// litecoind in regtest). Values from each node's chainparams.cpp.
const TEST_CHAINS: Record<
  Exclude<AddressChain, 'mainnet'>,
  Record<Exclude<UtxoCoin, 'bitcoincash'>, BTC_NETWORK> & { bitcoincash: string }
> = {
  testnet: {
    bitcoin: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
    litecoin: { bech32: 'tltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef },
    dogecoin: { bech32: '', pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 },
    bitcoincash: 'bchtest',
  },
  regtest: {
    bitcoin: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
    litecoin: { bech32: 'rltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef },
    dogecoin: { bech32: '', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
    bitcoincash: 'bchreg',
  },
};

function params(coin: Exclude<UtxoCoin, 'bitcoincash'>, chain: AddressChain): BTC_NETWORK {
  if (chain !== 'mainnet') return TEST_CHAINS[chain][coin];
  return coin === 'bitcoin' ? BITCOIN : coin === 'litecoin' ? LITECOIN : DOGECOIN;
}

function cashPrefix(chain: AddressChain): string {
  return chain === 'mainnet' ? CASHADDR_PREFIX : TEST_CHAINS[chain].bitcoincash;
}

export function isUtxoCoin(name: string): name is UtxoCoin {
  return name === 'bitcoin' || name === 'litecoin' || name === 'bitcoincash' || name === 'dogecoin';
}

/**
 * The deposit address of a 33-byte compressed public key, which BIP32 derivation has already
 * checked to be a point of the curve. Encoded from its HASH160: p2wpkh()/p2pkh() would decompress
 * the key once more to check it again, a third of the cost of deriving an address.
 */
export function utxoAddress(coin: UtxoCoin, publicKey: Uint8Array, chain: AddressChain = 'mainnet'): string {
  if (publicKey.length !== 33) throw new Error('expected a 33-byte compressed public key');
  const hash = hash160(publicKey);
  switch (coin) {
    case 'bitcoin':
    case 'litecoin':
      return Address(params(coin, chain)).encode({ type: 'wpkh', hash });
    case 'dogecoin':
      return Address(params(coin, chain)).encode({ type: 'pkh', hash });
    case 'bitcoincash':
      // Same HASH160 as a Bitcoin P2PKH; only the text encoding differs.
      return cashaddr.encode(cashPrefix(chain), 'P2PKH', hash);
  }
}

export function isValidUtxoAddress(coin: UtxoCoin, address: string, chain: AddressChain = 'mainnet'): boolean {
  try {
    if (coin === 'bitcoincash') return isValidCashAddr(address, cashPrefix(chain));
    Address(params(coin, chain)).decode(address);
    return true;
  } catch {
    return false;
  }
}

/**
 * CashAddr with the "bitcoincash:" prefix written out (prefix-less and legacy "1..." forms are
 * refused: the latter reads as a Bitcoin address, a classic way to send coins to the wrong chain).
 * P2PKH/P2SH of 20 bytes, or P2SH of 32 bytes (P2SH32). Re-encoding must give the same text, which
 * also rejects the reserved version bit cashaddrjs' decoder ignores.
 */
function isValidCashAddr(address: string, expectedPrefix: string): boolean {
  const { prefix, type, hash } = cashaddr.decode(address);
  if (prefix !== expectedPrefix) return false;
  if (!(hash.length === 20 || (type === 'P2SH' && hash.length === 32))) return false;
  return cashaddr.encode(prefix, type, hash) === address.toLowerCase();
}
