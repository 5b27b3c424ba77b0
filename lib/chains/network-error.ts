/** The reason a fetch to a node failed, as its cause names it (ECONNREFUSED, UND_ERR_SOCKET...). */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
