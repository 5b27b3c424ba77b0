/**
 * Addresses and output scripts of every Bitcoin-family coin, CashAddr included: the gateway's
 * address checks (../address.ts), the sandbox and the signer of raw transactions read them here, so
 * that an address means one script everywhere. Client-safe.
 */
import { Address, OutScript } from '@scure/btc-signer/payment.js';
import cashaddr from 'cashaddrjs';
import { addressParams, cashAddrPrefix, type UtxoChain, type UtxoCoin } from './networks';

/**
 * CashAddr with the prefix of `chain` written out (prefix-less and legacy "1..." forms are refused:
 * the latter reads as a Bitcoin address, a classic way to send coins to the wrong chain). P2PKH/P2SH
 * of 20 bytes, or P2SH of 32 bytes (P2SH32). Re-encoding must give the same text, which also
 * rejects the reserved version bit cashaddrjs' decoder ignores. Throws on anything else.
 */
export function decodeCashAddr(address: string, chain: UtxoChain): { type: 'P2PKH' | 'P2SH'; hash: Uint8Array } {
  const { prefix, type, hash } = cashaddr.decode(address);
  if (prefix !== cashAddrPrefix(chain)) throw new Error(`${address} is not a bitcoincash address of ${chain}`);
  if (!(hash.length === 20 || (type === 'P2SH' && hash.length === 32)))
    throw new Error(`${address} is not a bitcoincash address`);
  if (cashaddr.encode(prefix, type, hash) !== address.toLowerCase())
    throw new Error(`${address} is not a bitcoincash address`);
  return { type, hash };
}

/**
 * The output script that pays `address` (any standard type of the coin: CashAddr P2PKH and P2SH on
 * bitcoincash); throws on an address that is not one of the coin's on `chain`.
 */
export function outputScriptOf(coin: UtxoCoin, chain: UtxoChain, address: string): Uint8Array {
  if (coin !== 'bitcoincash') return OutScript.encode(Address(addressParams(coin, chain)).decode(address));
  const { type, hash } = decodeCashAddr(address, chain);
  if (type === 'P2PKH') return OutScript.encode({ type: 'pkh', hash });
  // P2SH32 (CHIP-2022-05): OP_HASH256 <32 bytes> OP_EQUAL.
  if (hash.length === 32) return Uint8Array.from([0xaa, 0x20, ...hash, 0x87]);
  return OutScript.encode({ type: 'sh', hash });
}

/** The address an output script pays, in the coin's format (CashAddr on bitcoincash); null for a script without one. */
export function addressOfOutputScript(coin: UtxoCoin, chain: UtxoChain, script: Uint8Array): string | null {
  try {
    const decoded = OutScript.decode(script);
    if (coin !== 'bitcoincash') return Address(addressParams(coin, chain)).encode(decoded);
    if (decoded.type === 'pkh') return cashaddr.encode(cashAddrPrefix(chain), 'P2PKH', decoded.hash);
    if (decoded.type === 'sh') return cashaddr.encode(cashAddrPrefix(chain), 'P2SH', decoded.hash);
    return null;
  } catch {
    return null;
  }
}
