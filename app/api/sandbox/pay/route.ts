import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { simulateOrderPayment, SimulationError } from '@/lib/sandbox';

const body = z.object({ orderId: z.string().min(1).max(100), kind: z.enum(['full', 'partial', 'over']) });

const headers = { 'cache-control': 'no-store' };

/**
 * The payment page's "Simulate payment" (test-mode orders only): broadcasts a payment on the
 * sandbox ledger and answers its transaction hash; the order moves when the watcher sees it.
 */
export async function POST(request: Request): Promise<Response> {
  const parsed = body.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) {
    return Response.json(
      { error: 'Send {"orderId": "...", "kind": "full" | "partial" | "over"}.' },
      { status: 400, headers },
    );
  }
  try {
    const payment = await simulateOrderPayment(await getDatabase(), parsed.data.orderId, parsed.data.kind);
    return Response.json(payment, { headers });
  } catch (error) {
    if (error instanceof SimulationError)
      return Response.json({ error: error.message }, { status: error.status, headers });
    throw error;
  }
}
