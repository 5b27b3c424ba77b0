import 'server-only';
import { config } from '../config';
import { formatDecimal } from '../money';
import type { PaymentLink } from '../protocol';
import { linkStatus } from './rules';
import type { LinkWithCounts } from './store';

/** The link's public address: its page, where payers go on to an invoice. */
export function paymentLinkUrl(linkId: string): string {
  return `${config().publicBaseUrl}/link/${linkId}`;
}

/** Base units of the link's currency as the API writes them ("25", "12.5"). */
function price(value: string | null, scale: number): string | null {
  return value === null ? null : formatDecimal({ value: BigInt(value), scale });
}

/** The payment link object of payment-links/* (lib/protocol paymentLinkResponse). */
export function serializePaymentLink(link: LinkWithCounts, now = new Date()): PaymentLink {
  return {
    id: link.id,
    link: paymentLinkUrl(link.id),
    status: linkStatus(
      { active: link.active, expiresAt: link.expires_at, maxUses: link.max_uses, paid: link.paid_count },
      now,
    ),
    title: link.title,
    description: link.description,
    image: link.image,
    currency: link.currency,
    amount: price(link.amount, link.price_decimals),
    minAmount: price(link.min_amount, link.price_decimals),
    maxAmount: price(link.max_amount, link.price_decimals),
    maxQuantity: link.max_quantity,
    currencies: link.currencies,
    expiresAt: link.expires_at?.toISOString() ?? null,
    maxUses: link.max_uses,
    webhookURL: link.webhook_url,
    returnUrl: link.return_url,
    views: Number(link.views),
    invoices: link.invoice_count,
    paid: link.paid_count,
    paidTotal: price(link.paid_total, link.price_decimals)!,
    createdAt: link.created_at.toISOString(),
  };
}
