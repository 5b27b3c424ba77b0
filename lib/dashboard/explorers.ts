/**
 * Block explorer links of transactions, per network: a URL template with `{tx}`. The catalog's
 * networks are mainnets, so these defaults serve live orders on them; a live network configured
 * against a test chain, and test mode's sandbox ledger (whose transactions exist on no public
 * chain), get no default link. A merchant's own template (settings, `merchants.explorer_urls`)
 * wins over the default.
 */

import { EXPLORER_TEMPLATE } from '../merchants';

export const DEFAULT_EXPLORERS: Readonly<Record<string, string>> = Object.freeze({
  bitcoin: 'https://mempool.space/tx/{tx}',
  litecoin: 'https://blockchair.com/litecoin/transaction/{tx}',
  bitcoincash: 'https://blockchair.com/bitcoin-cash/transaction/{tx}',
  dogecoin: 'https://blockchair.com/dogecoin/transaction/{tx}',
  ethereum: 'https://etherscan.io/tx/{tx}',
  bsc: 'https://bscscan.com/tx/{tx}',
  polygon: 'https://polygonscan.com/tx/{tx}',
  arbitrum: 'https://arbiscan.io/tx/{tx}',
  base: 'https://basescan.org/tx/{tx}',
  tron: 'https://tronscan.org/#/transaction/{tx}',
  ripple: 'https://xrpscan.com/tx/{tx}',
  solana: 'https://solscan.io/tx/{tx}',
});

/** What settings may store (lib/merchants EXPLORER_TEMPLATE, the one rule): links use nothing else. */
export function isExplorerTemplate(template: string): boolean {
  return EXPLORER_TEMPLATE.safeParse(template).success;
}

/**
 * The explorer URL of `txHash` on `network`: the merchant's template when it has one for the
 * network, else the default; undefined when neither exists (or a stored template is not a usable
 * http(s) URL). The hash is URL-encoded into the template.
 */
export function explorerLink(
  network: string,
  txHash: string,
  overrides: Readonly<Record<string, string>> = {},
): string | undefined {
  const own = Object.hasOwn(overrides, network) ? overrides[network] : undefined;
  const template = own !== undefined && isExplorerTemplate(own) ? own : DEFAULT_EXPLORERS[network];
  return template?.replaceAll('{tx}', encodeURIComponent(txHash));
}
