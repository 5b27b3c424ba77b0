/**
 * The pattern of each network's addresses and destination tags, as regular expressions in the
 * syntax JavaScript, Python, PHP and Go share (answered to merchants by `available-currencies`
 * and `utils/validate-address`). A pattern only says what an address looks like: a valid address
 * also has a valid checksum, which lib/chains checks.
 *
 * Bitcoin-family patterns follow the address chain (a live network configured against a test node
 * answers its test prefixes); every standard address type is matched, not only the deposit type
 * this gateway derives, since a valid address is not necessarily one we made.
 */
import type { AddressChain, Network } from './index';

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const BECH32 = '[02-9ac-hj-np-z]';

/** A base58 address with one of these leading characters, or a bech32 address of this prefix. */
const base58Or = (leading: string, bech32Prefix?: string) =>
  bech32Prefix ? `^(${bech32Prefix}1${BECH32}{8,87}|[${leading}]${BASE58}{25,34})$` : `^[${leading}]${BASE58}{25,34}$`;

/** Leading characters of base58 addresses and bech32 prefixes, from each node's chainparams.cpp. */
const UTXO: Record<string, Record<AddressChain, string>> = {
  bitcoin: { mainnet: base58Or('13', 'bc'), testnet: base58Or('mn2', 'tb'), regtest: base58Or('mn2', 'bcrt') },
  litecoin: { mainnet: base58Or('LM3', 'ltc'), testnet: base58Or('mnQ2', 'tltc'), regtest: base58Or('mnQ2', 'rltc') },
  dogecoin: { mainnet: base58Or('D9A'), testnet: base58Or('nm2'), regtest: base58Or('mn2') },
  // CashAddr, with or without its prefix.
  bitcoincash: {
    mainnet: `^(bitcoincash:)?[qp]${BECH32}{41}$`,
    testnet: `^(bchtest:)?[qp]${BECH32}{41}$`,
    regtest: `^(bchreg:)?[qp]${BECH32}{41}$`,
  },
};

const BY_FAMILY: Record<Exclude<Network['family'], 'utxo'>, string> = {
  evm: '^0x[0-9a-fA-F]{40}$',
  tron: `^T${BASE58}{33}$`,
  xrpl: `^r${BASE58}{24,34}$`,
  // 32 bytes in base58: 32 to 44 characters.
  solana: `^${BASE58}{32,44}$`,
};

/** An XRP Ledger destination tag: an unsigned 32-bit integer. */
const UINT32_TAG = '^(0|[1-9][0-9]{0,9})$';
/** A Solana Pay reference: 32 bytes in base58, like an address. */
const REFERENCE_TAG = BY_FAMILY.solana;

export interface AddressPatterns {
  addressRegex: string;
  /** Null for a network without destination tags; on Solana, the pattern of its payment references. */
  tagRegex: string | null;
}

export function addressPatterns(network: Network): AddressPatterns {
  const addressRegex =
    network.family === 'utxo' ? UTXO[network.name]?.[network.chain ?? 'mainnet'] : BY_FAMILY[network.family];
  if (!addressRegex) throw new Error(`no address pattern for network ${network.name}`);
  if (!network.usesTags) return { addressRegex, tagRegex: null };
  return { addressRegex, tagRegex: network.paymentReference ? REFERENCE_TAG : UINT32_TAG };
}
