import { receiveWebhook, StoreError } from '@/lib/store';

/** The demo store's webhook receiver (the URL it gives the gateway as successWebhook and errorWebhook). */
export async function POST(request: Request): Promise<Response> {
  // The signature covers the raw bytes: read them before anything parses the body.
  const raw = await request.text();
  try {
    const outcome = await receiveWebhook(request.headers, raw);
    return Response.json(outcome.body, { status: outcome.status });
  } catch (error) {
    if (error instanceof StoreError) return Response.json({ ok: false, error: error.message }, { status: 404 });
    throw error;
  }
}
