/** Why a fetch to a node failed, in a word when Node gives one (ECONNREFUSED, UND_ERR_SOCKET...), never its URL. */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

/** How a keep-alive connection the node had closed fails when it is reused. */
const STALE_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * POSTs a read to a node, `timeoutMs` per attempt. Every request of the watch-only adapters reads,
 * so one that failed on a keep-alive connection the node closed just as it was reused (its idle
 * timeout, or a process too busy to see the close in time) is sent once more on a new connection
 * rather than failing the watcher's pass. Any other failure, and a second one, is thrown as fetch
 * threw it.
 */
export async function postRead(
  url: string | URL,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const stale = (error as Error)?.name !== 'TimeoutError' && STALE_CONNECTION.has(describeNetworkError(error));
      if (attempt > 1 || !stale) throw error;
    }
  }
}
