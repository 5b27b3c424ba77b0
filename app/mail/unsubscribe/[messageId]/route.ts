/**
 * The unsubscribe link of every payer mail (lib/mail): GET asks, with a button that posts; POST
 * unsubscribes, whether from that button or from a mail client's one-click unsubscribe (RFC 8058,
 * `List-Unsubscribe=One-Click`). A plain page, in the payer's language, that works without
 * JavaScript; a GET changes nothing, since mail scanners follow links.
 */
import { getDatabase } from '@/lib/db';
import { escapeHtml, MAIL_MESSAGES, unsubscribe, unsubscribeTarget, type UnsubscribeTarget } from '@/lib/mail';
import { interpolate, isolate } from '@/lib/pay/format';
import { directionOf } from '@/lib/pay/i18n';

type Context = { params: Promise<{ messageId: string }> };

function page(target: UnsubscribeTarget, done: boolean): Response {
  const m = MAIL_MESSAGES[target.language];
  // The merchant's name isolated: "Shop 42!" keeps its "!" inside an Arabic sentence.
  const text = interpolate(done ? m.unsubscribed : m.unsubscribeQuestion, { merchant: isolate(target.merchantName) });
  const body = done
    ? `<p>${escapeHtml(text)}</p>`
    : `<form method="post"><p>${escapeHtml(text)}</p><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(m.unsubscribe)}</button></form>`;
  const html = `<!doctype html><html lang="${target.language}" dir="${directionOf(target.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>${escapeHtml(m.unsubscribe)}</title></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

const notFound = () =>
  new Response('This link is not known.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export async function GET(_request: Request, { params }: Context): Promise<Response> {
  const target = await unsubscribeTarget(await getDatabase(), (await params).messageId);
  return target ? page(target, false) : notFound();
}

export async function POST(_request: Request, { params }: Context): Promise<Response> {
  const { messageId } = await params;
  const db = await getDatabase();
  const target = await unsubscribeTarget(db, messageId);
  if (!target || !(await unsubscribe(db, messageId))) return notFound();
  return page(target, true);
}
