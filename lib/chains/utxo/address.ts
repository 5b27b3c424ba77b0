import 'server-only';
/**
 * Addresses of the Bitcoin-family networks. Deposit addresses are one type per network
 * (native segwit where the chain has it, P2PKH elsewhere); validation accepts every standard
 * mainnet address type of the network, since a valid address is not necessarily one we made.
 */
import { Address } from '@scure/btc-signer/payment.js';
import { hash160 } from '@scure/btc-signer/utils.js';
import cashaddr from 'cashaddrjs';
import type { AddressChain } from '../../catalog';
import {
  addressParams as params,
  cashAddrPrefix as cashPrefix,
  decodeCashAddr,
  outputScriptOf,
  type UtxoCoin,
} from './transactions';

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
    if (coin === 'bitcoincash') return isValidCashAddr(address, chain);
    Address(params(coin, chain)).decode(address);
    return true;
  } catch {
    return false;
  }
}

/** CashAddr of `chain` with its prefix written out (./transactions `decodeCashAddr`). */
function isValidCashAddr(address: string, chain: AddressChain): boolean {
  decodeCashAddr(address, chain);
  return true;
}

/**
 * The output script that pays `address` (any standard type of the coin: CashAddr P2PKH and P2SH on
 * bitcoincash); throws on an address that is not one of the coin's on `chain`.
 */
export function utxoOutputScript(coin: UtxoCoin, address: string, chain: AddressChain = 'mainnet'): Uint8Array {
  return outputScriptOf(coin, chain, address);
}
