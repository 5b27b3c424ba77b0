import 'server-only';
import { addressPatterns, currencyPairs } from '../catalog';
import { enabledNetworks } from './networks';
import type { AvailableCurrency, Mode } from '../protocol';

/**
 * available-currencies: what a key of `mode` can create orders in, grouped by currency, each
 * with the networks it can be paid on (the demo store builds its coin picker from this).
 * `confirmations` is the network's own count (its live configuration, or the catalog's), also for
 * test keys, whose sandbox payments need SANDBOX_CONFIRMATIONS instead.
 */
export function availableCurrencies(mode: Mode) {
  const byTicker = new Map<string, AvailableCurrency>();
  for (const { currency, network } of currencyPairs(enabledNetworks(mode))) {
    const entry = byTicker.get(currency.ticker) ?? { currency: currency.ticker, name: currency.name, networks: [] };
    byTicker.set(currency.ticker, entry);
    entry.networks.push({
      network: network.name,
      name: network.displayName,
      decimals: currency.decimals,
      contract: currency.contract ?? null,
      confirmations: network.confirmations,
      tagRequired: network.usesTags,
      defaultLifetime: network.defaultLifetime,
      ...addressPatterns(network),
    });
  }
  return [...byTicker.values()];
}
