/** The subscriber confirms the cancellation: the confirmation is spent, once (lib/subscriptions/page.ts). */
import { getDatabase } from '@/lib/db';
import { confirmCancel, subscriptionOfPageToken } from '@/lib/subscriptions';
import { readForm, redirectTo } from '../form';

export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const page = `/subscription/${encodeURIComponent(token)}`;
  const fields = await readForm(request);
  const db = await getDatabase();
  const subscription = await subscriptionOfPageToken(db, token);
  if (!subscription) return redirectTo(page, fields);
  const done = await db.transaction((tx) => confirmCancel(tx, subscription.id, fields.confirmation ?? ''));
  return redirectTo(page, fields, done ? { canceled: '1' } : {});
}
