/**
 * A payer mail as it is sent: subject, plain text and HTML, in the payer's language, from the
 * payer-safe view of the order (lib/pay, the same fields the payment page shows) and the page's
 * own words for the moment (lib/pay/messages `screens`). Pure: unit-tested in compose.test.ts.
 *
 * The HTML is a single table with inline styles (what mail clients render alike), escapes every
 * inserted value, isolates amounts, addresses and ids (`<bdi>`, FSI/PDI in the text) so that a
 * right-to-left mail keeps them whole, and loads nothing: no tracking pixel, no remote image (the
 * merchant's logo travels inside the message, `cid:`).
 */
import type { InvoiceLineItem } from '../invoices/view';
import { formatAmount, interpolate, isolate } from '../pay/format';
import { directionOf, type Language } from '../pay/i18n';
import { MESSAGES } from '../pay/messages';
import type { PublicOrderView, Screen } from '../pay/view';
import { lineItemValue } from '../receipts/document';
import type { PayerMailKind } from './kinds';
import { headerText } from './header-text';
import { MAIL_MESSAGES } from './mail-messages';

/** The `cid:` of the merchant's logo, attached to the message when it has one. */
export const LOGO_CID = 'logo@cryptogate';

/**
 * A sent message's HTML as a mail client shows it, for the dashboard's copy (./catcher): the
 * logo's `cid:` reference drawn from `logo`, the data: URL the message attaches. The message
 * itself keeps `cid:`: Gmail and Outlook show an inline attachment but drop a data: image.
 * A logo that is not a base64 image data: URL (never stored, lib/merchants) leaves the HTML as is.
 */
export function withInlineLogo(html: string, logo: string | null): string {
  if (!logo || !/^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/.test(logo)) return html;
  return html.replaceAll(`src="cid:${LOGO_CID}"`, `src="${logo}"`);
}

export interface PayerMailInput {
  kind: PayerMailKind;
  language: Language;
  view: PublicOrderView;
  merchant: { name: string; color: string | null; hasLogo: boolean };
  /** The payment page, the receipt, the unsubscribe page: absolute URLs. */
  links: { page: string; receipt: string; unsubscribe: string };
  /** Transaction links by id, where the network has an explorer. */
  explorer: (txid: string) => string | null;
  /** An invoice's order: the invoice's line items (lib/invoices), in its currency; the paid mail lists them. */
  items: InvoiceLineItem[];
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** The page's screen whose words the mail uses. */
function screenOf(kind: PayerMailKind, view: PublicOrderView): Screen {
  switch (kind) {
    case 'payment-detected':
      return 'detected';
    case 'payment-partial':
      return 'partially-paid';
    case 'payment-paid':
      return view.status === 'overpaid' ? 'overpaid' : 'paid';
    case 'payment-expired':
      return view.status === 'partial' ? 'underpaid' : 'expired';
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made safe inside HTML text and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A brand colour only when it is exactly `#rrggbb` (settings check it; the HTML trusts nothing). */
function accentOf(color: string | null): string {
  return color && /^#[0-9a-f]{6}$/i.test(color) ? color : '#1f4fd1';
}

export function composePayerMail(input: PayerMailInput): ComposedMail {
  const { kind, language, view, merchant, links } = input;
  const m = MESSAGES[language];
  const mm = MAIL_MESSAGES[language];
  const screen = m.screens[screenOf(kind, view)];
  const merchantName = headerText(merchant.name);
  // Only the merchant's name is outside text: the rest is ours, and keeps its own punctuation.
  const subject = `${merchantName}${m.separators.label}${screen.title}`;
  const amountOf = (amount: string) => `${formatAmount(amount, language)} ${view.currency}`;

  /** [label, value, isolated]: the details both parts show. */
  const details: [string, string][] = [[m.orderReference, view.orderId]];
  if (view.description) details.push([m.description, view.description]);
  if (kind === 'payment-paid' && view.invoice)
    // The name is the merchant's text, in any direction: isolated, as the values are.
    for (const item of input.items)
      details.push([isolate(item.name), lineItemValue(item, view.invoice.currency, language)]);
  details.push([m.orderTotal, `${amountOf(view.amount)} (${view.networkName})`]);
  if (kind !== 'payment-detected') details.push([m.received, amountOf(view.received)]);
  if (kind === 'payment-partial') details.push([m.remaining, amountOf(view.remaining)]);
  const transactions = view.payments.filter((p) => p.status !== 'rejected').map((p) => p.txid);

  const action =
    kind === 'payment-paid'
      ? { label: mm.viewReceipt, href: links.receipt }
      : kind === 'payment-partial'
        ? { label: mm.payRest, href: links.page }
        : { label: mm.openPage, href: links.page };
  const why = interpolate(mm.why, { merchant: isolate(merchantName) });

  const text = [
    merchantName,
    '',
    screen.title,
    screen.body,
    '',
    ...details.map(([label, value]) => `${label}${m.separators.label}${isolate(value)}`),
    ...transactions.map((tx) => `${m.transaction}${m.separators.label}${isolate(tx)}`),
    '',
    `${action.label}${m.separators.label}${action.href}`,
    '',
    '--',
    why,
    `${mm.unsubscribe}${m.separators.label}${links.unsubscribe}`,
    '',
  ].join('\n');

  const dir = directionOf(language);
  const accent = accentOf(merchant.color);
  const cell = 'padding:4px 8px;vertical-align:top;';
  const row = (label: string, value: string) =>
    `<tr><th scope="row" style="${cell}text-align:start;font-weight:normal;color:#555">${escapeHtml(label)}</th><td style="${cell}"><bdi>${value}</bdi></td></tr>`;
  const txRows = transactions.map((tx) => {
    const href = input.explorer(tx);
    const id = `<span style="font-family:monospace;word-break:break-all">${escapeHtml(tx)}</span>`;
    return row(m.transaction, href ? `<a href="${escapeHtml(href)}">${id}</a>` : id);
  });
  const html = `<!doctype html>
<html lang="${escapeHtml(language)}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;background:#f4f4f5;color:#18181b;font-family:system-ui,sans-serif">
<table role="presentation" dir="${dir}" style="max-width:560px;width:100%;margin:0 auto;background:#fff;border-radius:8px;border-top:4px solid ${accent};padding:16px">
<tr><td>
${merchant.hasLogo ? `<img src="cid:${LOGO_CID}" alt="${escapeHtml(merchantName)}" style="max-height:48px;max-width:200px">` : `<p style="margin:0;font-weight:bold">${escapeHtml(merchantName)}</p>`}
<h1 style="font-size:20px;margin:16px 0 8px">${escapeHtml(screen.title)}</h1>
<p style="margin:0 0 16px">${escapeHtml(screen.body)}</p>
<table role="presentation" style="border-collapse:collapse;margin-bottom:16px">
${[...details.map(([label, value]) => row(label, escapeHtml(value))), ...txRows].join('\n')}
</table>
<p><a href="${escapeHtml(action.href)}" style="display:inline-block;padding:10px 16px;background:${accent};color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(action.label)}</a></p>
<hr style="border:0;border-top:1px solid #e4e4e7;margin:24px 0 8px">
<p style="font-size:12px;color:#555;margin:0">${escapeHtml(why)} <a href="${escapeHtml(links.unsubscribe)}" style="color:#555">${escapeHtml(mm.unsubscribe)}</a></p>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}
