import 'server-only';
import { config } from '../config';
import { formatDecimal, formatUnits, parseDecimal, valueOfUnits } from '../money';
import { decimalsOf, paymentLink } from '../orders';
import type { Invoice, InvoiceCurrency, InvoiceWebhookPayload } from '../protocol';
import type { InvoiceWithOrder } from './rows';

export function invoiceLink(invoiceId: string): string {
  return `${config().publicBaseUrl}/invoice/${invoiceId}`;
}

/** A NUMERIC(9,6) percentage as stored ("1.500000") in canonical form ("1.5"). */
function canonical(stored: string | null): string | null {
  return stored === null ? null : formatDecimal(parseDecimal(stored)!);
}

/**
 * The invoice object, field for field as the clients of the API we follow read it. `currencies`
 * carries the amounts of the quote made at creation, except the chosen network's, which is its
 * order's amount (locked when the payer chose).
 */
export function serializeInvoice({ invoice, order }: InvoiceWithOrder): Invoice {
  const price = { value: BigInt(invoice.amount), scale: invoice.price_decimals };
  const chosen = order && { decimals: decimalsOf(order.network, order.currency), received: BigInt(order.received) };
  const currencies = (invoice.currencies as InvoiceCurrency[]).map((coin) => ({
    currency: coin.currency,
    networks: coin.networks.map((n) =>
      order && chosen && order.currency === coin.currency && order.network === n.name
        ? { name: n.name, amount: formatUnits(BigInt(order.amount), chosen.decimals) }
        : n,
    ),
  }));
  return {
    id: invoice.id,
    advancedBalanceId: invoice.advanced_balance_id,
    externalId: invoice.external_id,
    status: invoice.status,
    order: invoice.client_order,
    orderId: order?.id ?? null,
    orderLink: order ? paymentLink(order.id) : null,
    invoiceLink: invoiceLink(invoice.id),
    description: invoice.description,
    currency: invoice.currency,
    amount: formatDecimal(price),
    receivedNetwork: order?.network ?? null,
    receivedCurrency: order?.currency ?? null,
    receivedAmount: order && chosen ? formatUnits(chosen.received, chosen.decimals) : null,
    receivedAmountInInvoiceCurrency:
      order && chosen && invoice.rate
        ? valueOfUnits(chosen.received, chosen.decimals, parseDecimal(invoice.rate)!, invoice.price_decimals)
        : null,
    rate: order ? invoice.rate : null,
    includeFee: invoice.include_fee,
    additionalFees: invoice.additional_fees,
    insurancePercent: canonical(invoice.insurance_percent),
    slippagePercent: canonical(invoice.slippage_percent),
    webhookURL: invoice.webhook_url,
    returnUrl: invoice.return_url,
    expiresAt: invoice.expires_at.toISOString(),
    createdAt: invoice.created_at.toISOString(),
    currencies,
  };
}

/** An invoice webhook's body: the invoice as get-invoice answers it, plus `event` and `webhookId` (the `x-webhook-id`). */
export function invoiceWebhookBody(invoice: InvoiceWithOrder, eventId: string): string {
  return JSON.stringify({
    ...serializeInvoice(invoice),
    event: 'INVOICE',
    webhookId: eventId,
  } satisfies InvoiceWebhookPayload);
}
