/**
 * A sale's state for the point of sale's page while it waits (GET, JSON): the cashier's own sales
 * only (another's is 404), checked against the session every time.
 */
import { requireRoute } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { getSale, saleState } from '@/lib/links';

export async function GET(request: Request, { params }: { params: Promise<{ saleId: string }> }): Promise<Response> {
  const session = await requireRoute(request, 'pos');
  if (session instanceof Response) return session;
  const headers = { 'cache-control': 'no-store' };
  try {
    const sale = await getSale(await getDatabase(), session.userId, (await params).saleId);
    return Response.json({ state: saleState(sale.status) }, { headers });
  } catch (error) {
    if (isDomainErrorOf(error, 'NotFound')) return Response.json({ error: 'No such sale.' }, { status: 404, headers });
    throw error;
  }
}
