import 'server-only';
/**
 * What an invoice offers its payer: the coins and networks of `currencies` (every enabled one when
 * absent), each network's amount for the invoice's price at a rate. One place for the conversion
 * (lib/money `coinUnitsFor`: insurance added, rounded up to the coin's smallest unit), used by
 * make-invoice, the invoice page and the coin choice alike.
 */
import { currencyPairs, findCurrency, type Currency, type Network } from '../catalog';
import { enabledNetworks, networkFor } from '../chains';
import { coinUnitsFor, formatUnits, parseDecimal, type Decimal } from '../money';
import type { ErrorDetail, InvoiceCurrency, MakeInvoiceRequest, Mode } from '../protocol';
import { InvoiceCurrencyUnsupported } from './errors';

export interface OfferedCoin {
  ticker: string;
  networks: { network: Network; currency: Currency }[];
}

/** The offered coins of a request, resolved against what `mode` enables; a pair it cannot take is an error naming it. */
export function resolveOffers(mode: Mode, requested: MakeInvoiceRequest['currencies']): OfferedCoin[] {
  const enabled = enabledNetworks(mode);
  if (!requested || requested.length === 0) {
    const byTicker = new Map<string, OfferedCoin>();
    for (const { currency, network } of currencyPairs(enabled)) {
      const coin = byTicker.get(currency.ticker) ?? { ticker: currency.ticker, networks: [] };
      coin.networks.push({ network, currency });
      byTicker.set(currency.ticker, coin);
    }
    return [...byTicker.values()];
  }
  const details: ErrorDetail[] = [];
  const offers = new Map<string, OfferedCoin>();
  requested.forEach((entry, i) => {
    const ticker = entry.currency.toUpperCase();
    const coin = offers.get(ticker) ?? { ticker, networks: [] };
    const names =
      entry.networks && entry.networks.length > 0
        ? entry.networks
        : enabled.filter((n) => findCurrency(n, ticker)).map((n) => n.name);
    if (names.length === 0)
      details.push({ path: `currencies.${i}.currency`, message: `${ticker} is not available for ${mode} keys` });
    names.forEach((name, j) => {
      const network = networkFor(mode, name);
      const currency = network && findCurrency(network, ticker);
      if (!network || !currency) {
        details.push({
          path: `currencies.${i}.networks.${j}`,
          message: `${ticker} on ${name.toLowerCase()} is not available for ${mode} keys`,
        });
      } else if (!coin.networks.some((n) => n.network.name === network.name)) {
        coin.networks.push({ network, currency });
      }
    });
    offers.set(ticker, coin);
  });
  if (details.length > 0) {
    throw new InvoiceCurrencyUnsupported(
      `Some of currencies cannot be offered: ${details.map((d) => d.message).join('; ')}.`,
      details,
    );
  }
  return [...offers.values()];
}

/** Base units of `currency` the payer sends for `price` at `rate` (one coin's price), insurance added. */
export function coinAmountFor(
  price: Decimal,
  rate: string,
  currency: Currency,
  insurancePercent: string | null,
): bigint {
  return coinUnitsFor(
    price,
    parseDecimal(rate)!,
    currency.decimals,
    insurancePercent === null ? undefined : parseDecimal(insurancePercent),
  );
}

/** The `currencies` of an invoice's answer: each offered network with its amount at `rates` (by ticker). */
export function offeredAmounts(
  offers: readonly OfferedCoin[],
  price: Decimal,
  rates: Readonly<Record<string, string>>,
  insurancePercent: string | null,
): InvoiceCurrency[] {
  return offers.map((coin) => ({
    currency: coin.ticker,
    networks: coin.networks.map(({ network, currency }) => ({
      name: network.name,
      amount: formatUnits(coinAmountFor(price, rates[coin.ticker]!, currency, insurancePercent), currency.decimals),
    })),
  }));
}

/** The offers stored with an invoice (`currencies`), as the catalog networks of `mode` now. */
export function storedOffers(mode: Mode, currencies: readonly InvoiceCurrency[]): OfferedCoin[] {
  return currencies.flatMap((coin) => {
    const networks = coin.networks.flatMap(({ name }) => {
      const network = networkFor(mode, name);
      const currency = network && findCurrency(network, coin.currency);
      return network && currency ? [{ network, currency }] : [];
    });
    return networks.length > 0 ? [{ ticker: coin.currency, networks }] : [];
  });
}
