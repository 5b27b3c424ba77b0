/**
 * GET /dashboard/export?kind=orders|invoices&from=YYYY-MM-DD&to=YYYY-MM-DD: the CSV export of the
 * session's merchant and mode, streamed as lib/dashboard writes it (keyset batches), with the
 * row count up front in `x-total-rows` for the page's progress bar. `to` is inclusive (the whole
 * day, UTC). A bad query is a 400 JSON answer naming the field, never a 500.
 */
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { countForExport, exportOrdersCsv } from '@/lib/dashboard';
import { requireRoute } from '../../session';

const DAY_MS = 86_400_000;
const day = z.iso.date({ error: 'must be a date YYYY-MM-DD' });

const exportQuery = z
  .object({
    kind: z.enum(['orders', 'invoices']).default('orders'),
    from: day,
    to: day,
  })
  .refine((q) => q.from <= q.to, { error: 'from must not be after to', path: ['from'] });

export async function GET(request: Request): Promise<Response> {
  const session = await requireRoute(request, 'view');
  if (session instanceof Response) return session;
  const parsed = exportQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    const message = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`).join('; ');
    return Response.json({ error: { code: 'BAD_REQUEST', message } }, { status: 400 });
  }
  const { kind, from, to } = parsed.data;
  const range = { from: new Date(`${from}T00:00:00.000Z`), to: new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS) };
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const db = await getDatabase();
  const total = await countForExport(db, scope, range, kind);
  const rows = exportOrdersCsv(db, scope, range, kind)[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await rows.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await rows.return?.();
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${kind}-${session.mode}-${from}-to-${to}.csv"`,
      'x-total-rows': String(total),
      'cache-control': 'no-store',
    },
  });
}
