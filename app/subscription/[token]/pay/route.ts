/**
 * The subscriber pays ahead (`periods`, 1 to 24), or reactivates a canceled subscription (one
 * period): one invoice, and the invoice page takes it from there (lib/subscriptions).
 */
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
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
  const invoiceId = await withInvoiceQuotes((quotes) =>
    db.transaction((tx) => startSubscriberInvoice(tx, subscription.id, parsed.data.periods, quotes)),
  );
  return redirectTo(`/invoice/${invoiceId}`, fields);
}
