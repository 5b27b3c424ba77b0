/**
 * The Bitcoin-family networks' address parameters and transaction formats, client-safe: the
 * gateway's addresses (../address.ts) and the signer (scripts/signer) read them from here alone.
 * Values from each node's chainparams.cpp.
 */
import { NETWORK, type BTC_NETWORK } from '@scure/btc-signer/utils.js';

export type UtxoCoin = 'bitcoin' | 'litecoin' | 'bitcoincash' | 'dogecoin';
/** Which chain of a coin: its main network, or a test chain (the tests' litecoind runs regtest). */
export type UtxoChain = 'mainnet' | 'testnet' | 'regtest';

export const UTXO_COINS: readonly UtxoCoin[] = ['bitcoin', 'litecoin', 'bitcoincash', 'dogecoin'];

export function isUtxoCoin(name: string): name is UtxoCoin {
  return (UTXO_COINS as readonly string[]).includes(name);
}

// `bech32: ''` turns bech32 decoding off in btc-signer, so a "doge1..." string is not taken for a
// segwit address (Dogecoin has no segwit).
const MAINNET: Record<Exclude<UtxoCoin, 'bitcoincash'>, BTC_NETWORK> = {
  bitcoin: NETWORK, // bc1, 1..., 3...
  litecoin: { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32, wif: 0xb0 }, // ltc1, L..., M...
  dogecoin: { bech32: '', pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e }, // D..., 9/A...
};
const TEST_CHAINS: Record<Exclude<UtxoChain, 'mainnet'>, Record<Exclude<UtxoCoin, 'bitcoincash'>, BTC_NETWORK>> = {
  testnet: {
    bitcoin: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
    litecoin: { bech32: 'tltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef },
    dogecoin: { bech32: '', pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 },
  },
  regtest: {
    bitcoin: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
    litecoin: { bech32: 'rltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef },
    dogecoin: { bech32: '', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  },
};
const CASHADDR_PREFIX: Record<UtxoChain, string> = {
  mainnet: 'bitcoincash',
  testnet: 'bchtest',
  regtest: 'bchreg',
};

/** The base58 and bech32 parameters of a coin other than bitcoincash (which writes CashAddr). */
export function addressParams(coin: Exclude<UtxoCoin, 'bitcoincash'>, chain: UtxoChain): BTC_NETWORK {
  return chain === 'mainnet' ? MAINNET[coin] : TEST_CHAINS[chain][coin];
}

export function cashAddrPrefix(chain: UtxoChain): string {
  return CASHADDR_PREFIX[chain];
}

/**
 * How a coin's collection is handed to the signer. Bitcoin Core and Litecoin Core read PSBTs
 * (version 0, BIP 174); Dogecoin Core and the Bitcoin Cash nodes do not, so there the signer signs
 * the raw transaction itself (Bitcoin Cash with its fork id in the signature hash).
 */
export const SIGNING_FORMAT: Record<UtxoCoin, 'psbt' | 'raw'> = {
  bitcoin: 'psbt',
  litecoin: 'psbt',
  dogecoin: 'raw',
  bitcoincash: 'raw',
};

/** The script type of a coin's deposit addresses: native segwit where the chain has it, P2PKH elsewhere. */
export const DEPOSIT_SCRIPT: Record<UtxoCoin, 'wpkh' | 'pkh'> = {
  bitcoin: 'wpkh',
  litecoin: 'wpkh',
  dogecoin: 'pkh',
  bitcoincash: 'pkh',
};
