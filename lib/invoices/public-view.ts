import 'server-only';
/**
 * Builds the invoice page's payer-safe view (./view): the invoice, its merchant's name, and each
 * offered network with the amount a choice made now would ask (the rate ./choose would lock).
 */
import { findCurrency, type Network } from '../catalog';
import { alias, merchants, orders, param, sql, statement, type Database, type RowOf } from '../db';
import { formatUnits } from '../money';
import type { InvoiceCurrency } from '../protocol';
import { payableRate, loadInvoice } from './choose';
import { lineItemsOf } from './items';
import { canChooseCoin } from './lifecycle';
import { coinAmountFor, storedOffers } from './offers';
import { invoiceScreenOf, type InvoiceCoin, type PublicInvoiceView } from './view';
import { isDomainErrorOf } from '../errors';

/** The standard of a token on `network` (the catalog's), null for its native coin. */
function tokenStandard(network: Network, ticker: string): string | null {
  return findCurrency(network, ticker)?.contract ? (network.tokenStandard ?? null) : null;
}

const m = alias(merchants, 'm');
const o = alias(orders, 'o');
type Extra = {
  merchant_name: RowOf<typeof merchants>['name'];
  brand_logo: RowOf<typeof merchants>['brand_logo'];
  brand_color: RowOf<typeof merchants>['brand_color'];
  order_currency: RowOf<typeof orders>['currency'] | null;
  order_network: RowOf<typeof orders>['network'] | null;
  usage: Record<string, number> | null;
};
const EXTRA = statement<Extra, { merchantId: string; mode: string; orderId: string | null }>(
  sql`select ${m.name} as merchant_name, ${m.brandLogo}, ${m.brandColor}, ${o.currency} as order_currency, ${o.network} as order_network,
            (select json_object_agg(used.currency, used.n) from (
               select ${orders.currency}, count(*)::int as n from ${orders}
                where ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')} and ${orders.createdAt} > now() - interval '30 days'
                group by ${orders.currency}) used) as usage
       from ${merchants} m left join ${orders} o on ${o.id} = ${param('orderId')} where ${m.id} = ${param('merchantId')}`,
);

/**
 * The coins most paid with, first to last (stablecoins and the largest coins): after the merchant's
 * own most used, the invoice page lists these first, so that the likely choice is at the top even
 * for a merchant without orders yet. A coin not named here follows them, in the offer's order.
 */
const POPULAR_COINS: readonly string[] = ['USDT', 'BTC', 'USDC', 'ETH', 'SOL', 'TRX', 'LTC', 'XRP', 'BNB', 'DOGE'];

function popularity(ticker: string): number {
  const rank = POPULAR_COINS.indexOf(ticker);
  return rank === -1 ? POPULAR_COINS.length : rank;
}

/** The public view of an invoice, or null for an unknown or malformed id. Any invoice, any merchant: the id is the secret. */
export async function loadInvoiceView(
  db: Database,
  invoiceId: string,
  now = new Date(),
): Promise<PublicInvoiceView | null> {
  const invoice = await loadInvoice(db, invoiceId);
  if (!invoice) return null;
  const [extra] = await EXTRA.run(db, {
    merchantId: invoice.merchant_id,
    mode: invoice.mode,
    orderId: invoice.order_id,
  });
  const canChoose = canChooseCoin(invoice.status, invoice.expires_at, now);
  const price = { value: BigInt(invoice.amount), scale: invoice.price_decimals };
  const offers = storedOffers(invoice.mode, invoice.currencies as InvoiceCurrency[]);
  const coins: InvoiceCoin[] = await Promise.all(
    offers.map(async (coin) => {
      const rate = canChoose
        ? await payableRate(invoice, coin.ticker).catch((error: unknown) => {
            if (isDomainErrorOf(error, 'RateUnavailable')) return null;
            throw error;
          })
        : null;
      return {
        ticker: coin.ticker,
        name: coin.networks[0]!.currency.name,
        networks: coin.networks.map(({ network, currency }) => ({
          network: network.name,
          networkName: network.displayName,
          tokenStandard: tokenStandard(network, coin.ticker),
          amount:
            rate === null
              ? null
              : formatUnits(coinAmountFor(price, rate, currency, invoice.insurance_percent), currency.decimals),
        })),
      };
    }),
  );
  const usage = extra?.usage ?? {};
  // The merchant's most used coins first (its orders of the last 30 days), then the popular ones,
  // then the offer's order.
  const ranked = coins
    .map((coin, i) => ({ coin, i }))
    .sort(
      (a, b) =>
        (usage[b.coin.ticker] ?? 0) - (usage[a.coin.ticker] ?? 0) ||
        popularity(a.coin.ticker) - popularity(b.coin.ticker) ||
        a.i - b.i,
    );
  return {
    invoiceId: invoice.id,
    status: invoice.status,
    screen: invoiceScreenOf(invoice.status, canChoose),
    test: invoice.mode === 'test',
    merchantName: extra?.merchant_name ?? '',
    brand: { logo: extra?.brand_logo ?? null, color: extra?.brand_color ?? null },
    description: invoice.description,
    items: lineItemsOf(invoice.items, invoice.price_decimals),
    currency: invoice.currency,
    amount: formatUnits(price.value, price.scale),
    returnUrl: invoice.return_url,
    expiresAt: invoice.expires_at.toISOString(),
    serverTime: now.toISOString(),
    chosen:
      invoice.order_id && extra?.order_currency && extra.order_network
        ? { orderId: invoice.order_id, currency: extra.order_currency, network: extra.order_network }
        : null,
    coins: ranked.map((r) => r.coin),
  };
}
