/**
 * Next.js calls register() once when the server starts, before it answers requests.
 * https://nextjs.org/docs/app/guides/instrumentation
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startGatewayOrExit } = await import('./lib/server');
  await startGatewayOrExit();
}
