/**
 * GET /dashboard/export?kind=orders|invoices&from=YYYY-MM-DD&to=YYYY-MM-DD: the CSV export of the
 * session's merchant and mode, streamed as lib/dashboard writes it (keyset batches), with the
 * row count up front in `x-total-rows` for the page's progress bar. The range reads like the
 * tables' date filters (lib/dashboard's EXPORT_PARAMS): `from` inclusive, a date-only `to` includes its day.
 * A bad query is a 400 JSON answer naming the parameter, never a 500.
 */
import { getDatabase } from '@/lib/db';
import { countForExport, exportOrdersCsv, parseExportParams } from '@/lib/dashboard';
import { isDomainErrorOf } from '@/lib/errors';
import { requireRoute } from '../../session';

function badRequest(message: string): Response {
  // Like every answer of this route (requireRoute's too): the merchant's data and its refusals are never cached.
  return Response.json(
    { error: { code: 'BAD_REQUEST', message } },
    { status: 400, headers: { 'cache-control': 'no-store' } },
  );
}

export async function GET(request: Request): Promise<Response> {
  const session = await requireRoute(request, 'view');
  if (session instanceof Response) return session;
  let params;
  try {
    params = parseExportParams(new URL(request.url).searchParams);
  } catch (error) {
    if (isDomainErrorOf(error, 'InvalidFilter')) return badRequest(error.message);
    throw error;
  }
  const { kind, range } = params;
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
      await rows.return?.(undefined);
    },
  });
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      // The name says the mode, so that a test export is never taken for the live books.
      'content-disposition': `attachment; filename="${kind}-${session.mode}-${day(range.from)}-${day(new Date(range.to.getTime() - 1))}.csv"`,
      'x-total-rows': String(total),
      'cache-control': 'no-store',
    },
  });
}
