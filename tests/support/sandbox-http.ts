import type { Database } from '@/lib/db/client';

export interface SandboxPayAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

/**
 * POST /api/sandbox/pay, the payment page's "Simulate payment", over real HTTP. `body` is sent
 * as JSON, or as is when it is a string (to send malformed bodies).
 */
export async function simulatePay(gateway: { baseUrl: string }, body: unknown): Promise<SandboxPayAnswer> {
  const response = await fetch(`${gateway.baseUrl}/api/sandbox/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Rows of the sandbox ledger: a refused simulation must not add any. */
export async function sandboxTransferCount(db: Pick<Database, 'query'>): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from sandbox_transfers');
  return row!.n;
}
