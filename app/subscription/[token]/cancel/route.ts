/**
 * The subscriber asks to cancel: a single-use confirmation is made (kept hashed) and the page asks
 * again with it; only the confirmation's post (../confirm) cancels.
 */
import { getDatabase } from '@/lib/db';
import { askToCancel, subscriptionOfPageToken } from '@/lib/subscriptions';
import { readForm, redirectTo } from '../form';

export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const page = `/subscription/${encodeURIComponent(token)}`;
  const fields = await readForm(request);
  const db = await getDatabase();
  const subscription = await subscriptionOfPageToken(db, token);
  if (!subscription) return redirectTo(page, fields);
  return redirectTo(page, fields, { confirm: await askToCancel(db, subscription.id) });
}
