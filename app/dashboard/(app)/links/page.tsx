import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm } from '@/app/dashboard/action-form';
import { requirePage } from '@/app/dashboard/session';
import { LINK, MUTED, PageBody, Section } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { listPaymentLinks, serializePaymentLink } from '@/lib/links';
import { can } from '@/lib/users';
import { createLinkAction } from './actions';
import { StatusBadge } from '@/components/ui/badge';
import { Label } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { CELL, DataTable, EmptyState } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Payment links' };

/** The newest links of the session's mode (a link's own page has the rest). */
const SHOWN = 100;

/**
 * The merchant's payment links of the session's mode, with their counts, and (for roles that may
 * make them) the form that makes one. Every form works without JavaScript.
 */
export default async function LinksPage() {
  const session = await requirePage('view');
  const { links, total } = await listPaymentLinks(await getDatabase(), session, { limit: SHOWN, offset: 0 });
  return (
    <PageBody
      title="Payment links"
      description="A payment link is a page that sells one thing: share it, or put its pay button on your site. A visit makes nothing; a payer who goes on gets an invoice, and an address only once they pick a coin."
    >
      {links.length === 0 ? (
        <EmptyState>{`No ${session.mode} payment link yet.`}</EmptyState>
      ) : (
        <DataTable
          caption={`Payment links (${total})`}
          head={['Title', 'Status', 'Price', 'Views', 'Invoices', 'Paid', 'Total paid']}
        >
          {links.map((row) => {
            const link = serializePaymentLink(row);
            return (
              <tr key={link.id} data-testid="link-row">
                <td className={CELL}>
                  <Link href={`/dashboard/links/${link.id}`} className={LINK}>
                    {link.title}
                  </Link>
                </td>
                <td className={CELL}>
                  <StatusBadge status={link.status} />
                </td>
                <td className={`${CELL} whitespace-nowrap font-mono`}>
                  {link.amount ?? `${link.minAmount}–${link.maxAmount}`} {link.currency}
                </td>
                <td className={`${CELL} font-mono`}>{link.views}</td>
                <td className={`${CELL} font-mono`}>{link.invoices}</td>
                <td className={`${CELL} font-mono`}>{link.paid}</td>
                <td className={`${CELL} whitespace-nowrap font-mono`}>{`${link.paidTotal} ${link.currency}`}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {total > SHOWN && <p className={`mt-2 text-sm ${MUTED}`}>{`The newest ${SHOWN} of ${total}.`}</p>}
      {can(session.role, 'links') && (
        <Section title="New payment link" id="new-link">
          <ActionForm action={createLinkAction} submit="Create link">
            <Label>
              Title
              <Input name="title" required maxLength={200} />
            </Label>
            <Label>
              Description (optional)
              <Textarea name="description" maxLength={1024} rows={2} />
            </Label>
            <Label>
              Price currency
              <Input name="currency" required defaultValue="USD" maxLength={16} />
            </Label>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">Price</legend>
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" name="pricing" value="fixed" defaultChecked /> A fixed price
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" name="pricing" value="chosen" /> The payer chooses the amount
              </label>
            </fieldset>
            <div className="grid gap-3 sm:grid-cols-2">
              <Label>
                Fixed price
                <Input name="amount" inputMode="decimal" />
              </Label>
              <Label>
                Most a payer may buy at once (optional)
                <Input name="maxQuantity" inputMode="numeric" />
              </Label>
              <Label>
                Least the payer may choose
                <Input name="minAmount" inputMode="decimal" />
              </Label>
              <Label>
                Most the payer may choose
                <Input name="maxAmount" inputMode="decimal" />
              </Label>
            </div>
            <Label>
              Coins offered (optional; e.g. &quot;USDT@tron BTC&quot;; empty: every enabled coin)
              <Input name="coins" />
            </Label>
            <div className="grid gap-3 sm:grid-cols-2">
              <Label>
                Makes no invoice after (optional, UTC)
                <Input name="expiresAt" type="date" />
              </Label>
              <Label>
                Most paid invoices (optional)
                <Input name="maxUses" inputMode="numeric" />
              </Label>
            </div>
            <Label>
              Return address after payment (optional)
              <Input name="returnUrl" type="url" />
            </Label>
          </ActionForm>
        </Section>
      )}
    </PageBody>
  );
}
