import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { loadPublicView } from '@/lib/pay';

const params = z.object({ orderId: z.uuid() });

// Payment state is never cached, by the browser or anything in between.
const headers = { 'cache-control': 'no-store' };

/**
 * The payment page's public status endpoint: the payer-safe view of an order (lib/pay/view), for
 * anyone who has its id (a random UUID, the secret of the link). 404 for an unknown or malformed id.
 */
export async function GET(_request: Request, context: { params: Promise<{ orderId: string }> }): Promise<Response> {
  const parsed = params.safeParse(await context.params);
  const notFound = () => Response.json({ error: 'NOT_FOUND', message: 'Order not found.' }, { status: 404, headers });
  if (!parsed.success) return notFound();
  try {
    const view = await loadPublicView(await getDatabase(), parsed.data.orderId);
    return view ? Response.json(view, { headers }) : notFound();
  } catch (error) {
    if (!isDatabaseBusy(error)) throw error;
    return Response.json(
      { error: 'OVERLOADED', message: 'Busy, retry shortly.' },
      { status: 503, headers: { ...headers, 'retry-after': '1' } },
    );
  }
}
