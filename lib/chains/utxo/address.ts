import 'server-only';
/**
 * Addresses of the Bitcoin-family networks. Deposit addresses are one type per network
 * (native segwit where the chain has it, P2PKH elsewhere); validation accepts every standard
 * mainnet address type of the network, since a valid address is not necessarily one we made.
 */
import { Address, p2pkh, p2wpkh } from '@scure/btc-signer/payment.js';
import { NETWORK, type BTC_NETWORK } from '@scure/btc-signer/utils.js';
import cashaddr from 'cashaddrjs';

export type UtxoCoin = 'bitcoin' | 'litecoin' | 'bitcoincash' | 'dogecoin';

// Version bytes of the base58 addresses; `bech32: ''` turns bech32 decoding off in btc-signer,
// so a "doge1..." string is not taken for a segwit address (Dogecoin has no segwit).
const BITCOIN: BTC_NETWORK = NETWORK; // bc1, 1..., 3...
const LITECOIN: BTC_NETWORK = { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32, wif: 0xb0 }; // ltc1, L..., M...
const DOGECOIN: BTC_NETWORK = { bech32: '', pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e }; // D..., 9/A...
const CASHADDR_PREFIX = 'bitcoincash';

export function isUtxoCoin(name: string): name is UtxoCoin {
  return name === 'bitcoin' || name === 'litecoin' || name === 'bitcoincash' || name === 'dogecoin';
}

/** The deposit address of a 33-byte compressed public key. */
export function utxoAddress(coin: UtxoCoin, publicKey: Uint8Array): string {
  switch (coin) {
    case 'bitcoin':
      return p2wpkh(publicKey, BITCOIN).address;
    case 'litecoin':
      return p2wpkh(publicKey, LITECOIN).address;
    case 'dogecoin':
      return p2pkh(publicKey, DOGECOIN).address;
    case 'bitcoincash':
      // Same HASH160 as a Bitcoin P2PKH; only the text encoding differs.
      return cashaddr.encode(CASHADDR_PREFIX, 'P2PKH', p2pkh(publicKey).hash);
  }
}

export function isValidUtxoAddress(coin: UtxoCoin, address: string): boolean {
  try {
    switch (coin) {
      case 'bitcoin':
        Address(BITCOIN).decode(address);
        return true;
      case 'litecoin':
        Address(LITECOIN).decode(address);
        return true;
      case 'dogecoin':
        Address(DOGECOIN).decode(address);
        return true;
      case 'bitcoincash':
        return isValidCashAddr(address);
    }
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
function isValidCashAddr(address: string): boolean {
  const { prefix, type, hash } = cashaddr.decode(address);
  if (prefix !== CASHADDR_PREFIX) return false;
  if (!(hash.length === 20 || (type === 'P2SH' && hash.length === 32))) return false;
  return cashaddr.encode(prefix, type, hash) === address.toLowerCase();
}
