import 'server-only';
/**
 * A payer goes on from a payment link's page: the link makes an invoice at the price of their
 * choice, and the invoice page takes it from there (a coin choice makes the order and takes the
 * address, lib/invoices). A link is public, so what it makes is capped (docs/payment-links.md,
 * "Abuse limits"): per link, per link and client address, and gateway-wide, per minute, on the
 * gateway's one rate limiter. Each invoice makes at most MAX_INVOICE_ORDERS orders, so the caps
 * bound the addresses links can take too.
 */
import { config } from '../config';
import type { Database } from '../db';
import { NotFound } from '../errors';
import { INVOICE_LIFETIME_MINUTES } from '../protocol';
import { makeLinkInvoice, type InvoiceRow } from '../invoices';
import { clientKey, perMinute, rateLimitWaitAll } from '../security';
import { LinkBusy, LinkChoiceInvalid, PaymentLinkClosed } from './errors';
import { linkStatus, priceOfChoice, type LinkPrice } from './rules';
import { findPublicLink, type PaymentLinkRow } from './store';

export interface LinkChoice {
  amount?: string | undefined;
  quantity?: number | undefined;
}

/** The link's price as ./rules reads it. */
export function linkPrice(
  link: Pick<PaymentLinkRow, 'amount' | 'min_amount' | 'max_amount' | 'max_quantity'>,
): LinkPrice {
  return link.amount !== null
    ? { kind: 'fixed', amount: BigInt(link.amount), maxQuantity: link.max_quantity }
    : { kind: 'chosen', min: BigInt(link.min_amount ?? 0), max: BigInt(link.max_amount ?? 0) };
}

/**
 * Makes the invoice for a payer of link `linkId` and answers it. Refused: an unknown link
 * (NotFound), one that makes no invoice now (PaymentLinkClosed), a choice outside the link's
 * bounds (LinkChoiceInvalid), and a spent cap (LinkBusy, with the seconds to wait; a refused
 * request spends no cap).
 */
export async function startLinkInvoice(
  db: Database,
  linkId: string,
  choice: LinkChoice,
  client: string | null | undefined,
  now = new Date(),
): Promise<InvoiceRow> {
  const link = await findPublicLink(db, linkId);
  if (!link) throw new NotFound('Payment link', linkId);
  const status = linkStatus(
    { active: link.active, expiresAt: link.expires_at, maxUses: link.max_uses, paid: link.paid_count },
    now,
  );
  if (status !== 'ACTIVE') throw new PaymentLinkClosed(link.id, status);
  const price = priceOfChoice(linkPrice(link), link.price_decimals, choice);
  if (!price.ok) throw new LinkChoiceInvalid(price.problem);

  const caps = config().linkInvoicesPerMinute;
  const wait = rateLimitWaitAll([
    ['links', perMinute(caps.gateway)],
    [`link:${link.id}`, perMinute(caps.link)],
    [`link:${link.id}:${clientKey(client ?? undefined)}`, perMinute(caps.client)],
  ]);
  if (wait > 0) throw new LinkBusy(wait);

  const title = price.quantity > 1 ? `${link.title} × ${price.quantity}` : link.title;
  return makeLinkInvoice(db, {
    linkId: link.id,
    soldBy: null,
    merchantId: link.merchant_id,
    mode: link.mode,
    currency: link.currency,
    amount: price.amount,
    description: link.description ? `${title}: ${link.description}`.slice(0, 1024) : title,
    // A fixed price: the link's price per piece; a price the payer chose: one line of it.
    items: [{ name: link.title, quantity: price.quantity, price: price.amount / BigInt(price.quantity) }],
    webhookUrl: link.webhook_url,
    returnUrl: link.return_url,
    currencies: link.currencies?.map((c) => ({ currency: c.currency, networks: c.networks })),
    lifetime: INVOICE_LIFETIME_MINUTES.default,
  });
}
