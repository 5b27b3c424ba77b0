import 'server-only';
/**
 * Addresses of the Bitcoin-family networks. Deposit addresses are one type per network
 * (native segwit where the chain has it, P2PKH elsewhere); validation accepts every standard
 * mainnet address type of the network, since a valid address is not necessarily one we made.
 */
import { Address, OutScript } from '@scure/btc-signer/payment.js';
import { hash160 } from '@scure/btc-signer/utils.js';
import cashaddr from 'cashaddrjs';
import type { AddressChain } from '../../catalog';
import { addressParams as params, cashAddrPrefix as cashPrefix, type UtxoCoin } from './transactions';

export { isUtxoCoin, type UtxoCoin } from './transactions';

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

/**
 * The output script that pays `address` (any standard type of the coin: CashAddr P2PKH and P2SH on
 * bitcoincash); throws on an address that is not one of the coin's on `chain`.
 */
export function utxoOutputScript(coin: UtxoCoin, address: string, chain: AddressChain = 'mainnet'): Uint8Array {
  if (coin !== 'bitcoincash') return OutScript.encode(Address(params(coin, chain)).decode(address));
  if (!isValidCashAddr(address, cashPrefix(chain))) throw new Error(`${address} is not a bitcoincash address`);
  const { type, hash } = cashaddr.decode(address);
  if (type === 'P2PKH') return OutScript.encode({ type: 'pkh', hash });
  // P2SH32 (CHIP-2022-05): OP_HASH256 <32 bytes> OP_EQUAL.
  if (hash.length === 32) return Uint8Array.from([0xaa, 0x20, ...hash, 0x87]);
  return OutScript.encode({ type: 'sh', hash });
}
