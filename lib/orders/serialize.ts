import 'server-only';
import { findCurrency, findNetwork } from '../catalog';
import { config } from '../config';
import { formatDecimal, formatUnits, parseDecimal } from '../money';
import type { Order, OrderDetails, OrderTransaction } from '../protocol';
import type { OrderPayment, OrderRow } from './rows';

/** Decimals of `currency` on `network`; rows only hold pairs from the catalog. */
export function decimalsOf(network: string, currency: string): number {
  const net = findNetwork(network);
  const cur = net && findCurrency(net, currency);
  if (!cur) throw new Error(`${currency} on ${network} is not in the catalog`);
  return cur.decimals;
}

/** Tolerance as stored (NUMERIC(9,6), e.g. "0.500000") to its canonical form ("0.5"). */
function canonicalPercent(stored: string): string {
  return formatDecimal(parseDecimal(stored)!);
}

export function paymentLink(orderId: string): string {
  return `${config().publicBaseUrl}/pay/${orderId}`;
}

/** The order object of seed section 2.2, field for field; absent request fields are null. */
export function serializeOrder(row: OrderRow): Order {
  const decimals = decimalsOf(row.network, row.currency);
  return {
    status: row.status,
    link: paymentLink(row.id),
    amount: formatUnits(BigInt(row.amount), decimals),
    paymentTolerancePercent: canonicalPercent(row.tolerance_percent),
    currency: row.currency,
    network: row.network,
    address: row.address,
    addressId: row.address_id,
    tag: row.tag,
    orderId: row.id,
    clientOrderId: row.client_order_id,
    externalUserId: row.external_user_id,
    payerEmail: row.payer_email,
    description: row.description,
    successWebhook: row.success_webhook,
    errorWebhook: row.error_webhook,
    returnUrl: row.return_url,
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * The order as the `order` operation answers it (and webhooks will carry it): the seed's order
 * object plus what happened since: received, the transactions, and the fields of the request.
 */
export function serializeOrderDetails(row: OrderRow, payments: readonly OrderPayment[]): Required<OrderDetails> {
  const decimals = decimalsOf(row.network, row.currency);
  return {
    ...serializeOrder(row),
    received: formatUnits(BigInt(row.received), decimals),
    message: row.message,
    checkRisks: row.check_risks,
    lifetime: row.lifetime,
    updatedAt: row.updated_at.toISOString(),
    transactions: payments.map((p): OrderTransaction => ({
      id: p.id,
      tx: p.tx_hash,
      amount: formatUnits(BigInt(p.amount), decimals),
      currency: p.currency,
      network: p.network,
      status: p.status,
      confirmations: p.confirmations,
      createdAt: p.created_at.toISOString(),
    })),
  };
}
