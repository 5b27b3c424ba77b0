import { adminCommand, isCommandError, runAdminCommand } from '@/lib/admin';
import { getDatabase } from '@/lib/db';
import { controlTokenMatches } from '@/lib/server';

/** The CLIs' way into a server that holds the embedded database (see lib/server/control.ts). */
export async function POST(request: Request): Promise<Response> {
  if (!controlTokenMatches(request.headers.get('authorization'))) {
    return Response.json({ error: 'unauthorized' }, { status: 401 });
  }
  const parsed = adminCommand.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success)
    return Response.json({ error: parsed.error.issues.map((i) => i.message).join('; ') }, { status: 400 });
  try {
    return Response.json(
      { result: await runAdminCommand(await getDatabase(), parsed.data) },
      { headers: { 'cache-control': 'no-store' } },
    );
  } catch (error) {
    if (isCommandError(error)) return Response.json({ error: error.message }, { status: 400 });
    throw error;
  }
}
