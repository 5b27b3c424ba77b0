import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { QRCodeSVG } from 'qrcode.react';
import { z } from 'zod';
import { requirePage } from '@/app/dashboard/session';
import { CopyButton } from '@/components/pay/copy-button';
import { CARD, MUTED, Notice, PageBody, Section, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { getPaymentLink, serializePaymentLink } from '@/lib/links';
import { can } from '@/lib/users';
import { disableLinkAction } from '../actions';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Payment link' };

type Props = {
  params: Promise<{ linkId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const NOTICE_PARAM = z.object({ notice: z.enum(['created', 'disabled']).optional().catch(undefined) });
const NOTICES = {
  created: 'The link is ready: share it, show its QR code, or put its pay button on your site.',
  disabled: 'The link is disabled: it makes no more invoices. The invoices it made run on.',
};

/** The pay button for the merchant's own site: a plain link styled inline, no script (nothing of ours runs on their page). */
function snippet(url: string, title: string): string {
  const label = `Pay: ${title}`.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<a href="${url}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#047857;color:#fff;font:600 16px system-ui,sans-serif;text-decoration:none">${label}</a>`;
}

/** One link: its counts, its QR code, its pay button snippet, and (for roles that may) "Disable". */
export default async function LinkDetailPage({ params, searchParams }: Props) {
  const session = await requirePage('view');
  const { linkId } = await params;
  let row;
  try {
    row = await getPaymentLink(await getDatabase(), session, linkId);
  } catch (error) {
    if (isDomainErrorOf(error, 'NotFound')) notFound();
    throw error;
  }
  const link = serializePaymentLink(row);
  const { notice } = NOTICE_PARAM.parse(await searchParams);
  const button = snippet(link.link, link.title);
  return (
    <PageBody title={link.title} description={link.description ?? undefined}>
      {notice && <Notice tone="success">{NOTICES[notice]}</Notice>}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {(
          [
            ['Status', <StatusBadge key="s" status={link.status} />],
            ['Price', `${link.amount ?? `${link.minAmount}–${link.maxAmount}`} ${link.currency}`],
            ['Views', String(link.views)],
            ['Invoices', String(link.invoices)],
            ['Paid', link.maxUses === null ? String(link.paid) : `${link.paid} of ${link.maxUses}`],
            ['Total paid', `${link.paidTotal} ${link.currency}`],
            ['Created', <Time key="c" value={link.createdAt} />],
            ['Makes no invoice after', link.expiresAt ? <Time key="e" value={link.expiresAt} /> : 'Never'],
          ] as const
        ).map(([term, value]) => (
          <div key={term} className={CARD}>
            <dt className={MUTED}>{term}</dt>
            <dd className="mt-1 font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      <Section title="Share" id="share">
        <div className="flex flex-wrap items-start gap-6">
          <div className="rounded-md bg-white p-3">
            <QRCodeSVG value={link.link} size={176} title={`QR code of the link to ${link.title}`} />
          </div>
          <div className="min-w-0 flex-1 space-y-3 text-sm">
            <p className="flex items-start justify-between gap-2">
              <a href={link.link} className="break-all font-mono underline" data-testid="public-link">
                {link.link}
              </a>
              <CopyButton value={link.link} label="Copy the link" text="Copy" done="Copied" />
            </p>
            <p>Pay button for your site (HTML, no script):</p>
            <p className="flex items-start justify-between gap-2">
              <code className="min-w-0 break-all rounded bg-raised p-2 font-mono text-xs">{button}</code>
              <CopyButton value={button} label="Copy the pay button's HTML" text="Copy" done="Copied" />
            </p>
          </div>
        </div>
      </Section>
      {can(session.role, 'links') && link.status !== 'DISABLED' && (
        <form action={disableLinkAction} className="mt-6">
          <input type="hidden" name="linkId" value={link.id} />
          <Button type="submit" variant="danger">
            Disable link
          </Button>
        </form>
      )}
    </PageBody>
  );
}
