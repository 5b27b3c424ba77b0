/**
 * The subscriber pays ahead (`periods`, 1 to 24), or reactivates a canceled subscription (one
 * period): one invoice, and the invoice page takes it from there (lib/subscriptions). Without a
 * fresh rate, back to the page with `error=rate`.
 */
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { startSubscriberInvoice, subscriptionOfPageToken, withInvoiceQuotes } from '@/lib/subscriptions';
import { readForm, redirectTo } from '../form';

const form = z.object({
  periods: z
    .string()
    .regex(/^\d{1,2}$/)
    .transform(Number)
    .pipe(z.number().min(1).max(24)),
});

export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const page = `/subscription/${encodeURIComponent(token)}`;
  const fields = await readForm(request);
  const db = await getDatabase();
  const subscription = await subscriptionOfPageToken(db, token);
  const parsed = form.safeParse(fields);
  if (!subscription || !parsed.success) return redirectTo(page, fields);
  let invoiceId: string;
  try {
    invoiceId = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) => startSubscriberInvoice(tx, subscription.id, parsed.data.periods, quotes)),
    );
  } catch (error) {
    // No fresh rate for the plan's coins: back to the page, which says to try again; nothing made.
    if (isDomainErrorOf(error, 'RateUnavailable')) return redirectTo(page, fields, { error: 'rate' });
    throw error;
  }
  return redirectTo(`/invoice/${invoiceId}`, fields);
}
