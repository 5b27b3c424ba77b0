import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { walletBlockhash } from '@/lib/pay';

const params = z.object({ orderId: z.uuid() });

const headers = { 'cache-control': 'no-store' };

/**
 * A recent Solana blockhash for the payment page's wallet button (lib/pay walletBlockhash): 200
 * `{blockhash, lastValidBlockHeight}` for a live Solana order awaiting payment, 404 for any other
 * id, 409 once the order no longer takes payments, 503 while no node answers.
 */
export async function GET(_request: Request, context: { params: Promise<{ orderId: string }> }): Promise<Response> {
  const parsed = params.safeParse(await context.params);
  if (!parsed.success) return Response.json({ error: 'NOT_FOUND' }, { status: 404, headers });
  const answer = await walletBlockhash(await getDatabase(), parsed.data.orderId);
  if (!answer.ok) return Response.json({ error: answer.error }, { status: answer.status, headers });
  return Response.json({ blockhash: answer.blockhash, lastValidBlockHeight: answer.lastValidBlockHeight }, { headers });
}
