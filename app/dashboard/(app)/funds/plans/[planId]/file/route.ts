/**
 * GET /dashboard/funds/plans/PLAN_ID/file?format=plan|psbt: a plan of the session's merchant and
 * mode as a download: `plan`, the JSON `npm run signer` reads (docs/collections.md); `psbt`, the
 * bare BIP 174 PSBT for a wallet that signs PSBTs (Bitcoin-family plans only). Never cached; another merchant's plan or a bad
 * query is a 404 or 400, never a 500.
 */
import { base64 } from '@scure/base';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { collectionPlan } from '@/lib/payouts';
import { requireRoute } from '../../../../../session';

const FORMAT = z.enum(['plan', 'psbt']);
const noStore = { 'cache-control': 'no-store' };

export async function GET(request: Request, { params }: { params: Promise<{ planId: string }> }): Promise<Response> {
  const session = await requireRoute(request, 'view');
  if (session instanceof Response) return session;
  const format = FORMAT.safeParse(new URL(request.url).searchParams.get('format'));
  if (!format.success)
    return Response.json({ error: 'format must be plan or psbt' }, { status: 400, headers: noStore });
  const { planId } = await params;
  const plan = await collectionPlan(await getDatabase(), session.merchantId, session.mode, planId);
  if (!plan) return Response.json({ error: 'No such plan.' }, { status: 404, headers: noStore });
  // An EVM or Tron plan is its JSON only: its transactions are in it, no PSBT.
  if (format.data === 'psbt' && !('psbt' in plan))
    return Response.json({ error: 'This plan has no PSBT: download format=plan.' }, { status: 400, headers: noStore });
  const name = `plan-${plan.planId}.${format.data === 'plan' ? 'json' : 'psbt'}`;
  const headers = { ...noStore, 'content-disposition': `attachment; filename="${name}"` };
  return format.data === 'plan'
    ? new Response(`${JSON.stringify(plan, null, 2)}\n`, {
        headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
      })
    : new Response(new Uint8Array(base64.decode((plan as { psbt: string }).psbt)), {
        headers: { ...headers, 'content-type': 'application/octet-stream' },
      });
}
