import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { walletSolanaTransaction } from '@/lib/pay';

const params = z.object({ orderId: z.uuid() });
/** A Solana address: base58 of 32 bytes (checked exactly in lib/pay). */
const query = z.object({ account: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/) });

const headers = { 'cache-control': 'no-store' };

/**
 * The unsigned transaction of a Solana order's transfer request, paid from `?account=` (the
 * shopper's connected wallet account), for the payment page's wallet button (lib/pay
 * walletSolanaTransaction): 200 `{transaction}` (base64 wire format, the signature left empty) for
 * a live Solana order awaiting payment, 400 `BAD_ACCOUNT` when `account` is no Solana address,
 * 404 for any other id, 409 once the order no longer takes payments, 503 while no node answers.
 */
export async function GET(request: Request, context: { params: Promise<{ orderId: string }> }): Promise<Response> {
  const parsed = params.safeParse(await context.params);
  if (!parsed.success) return Response.json({ error: 'NOT_FOUND' }, { status: 404, headers });
  const asked = query.safeParse({ account: new URL(request.url).searchParams.get('account') ?? undefined });
  if (!asked.success) return Response.json({ error: 'BAD_ACCOUNT' }, { status: 400, headers });
  const answer = await walletSolanaTransaction(await getDatabase(), parsed.data.orderId, asked.data.account);
  if (!answer.ok) return Response.json({ error: answer.error }, { status: answer.status, headers });
  return Response.json({ transaction: answer.transaction }, { headers });
}
