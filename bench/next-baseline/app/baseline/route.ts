/**
 * Baseline b: the least a Next.js route handler can do for a signed order, the same work as the
 * node:http baseline (../../../baseline-store.ts), so the gap between the two is Next.js itself.
 */
import { handleOrder } from '../../../baseline-store';

export async function POST(request: Request): Promise<Response> {
  const rawBody = Buffer.from(await request.arrayBuffer());
  const { status, body } = await handleOrder(rawBody, request.headers.get('x-api-signature'));
  return new Response(body, { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
}
