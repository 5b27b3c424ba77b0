/** Why a fetch to a node failed, in a word when Node gives one (ECONNREFUSED, UND_ERR_SOCKET...), never its URL. */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
