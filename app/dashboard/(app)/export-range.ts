/** The export box's default range: the last 30 days, today included (UTC dates). */
export function defaultExportRange(now = new Date()): { from: string; to: string } {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { from: day(new Date(now.getTime() - 29 * 86_400_000)), to: day(now) };
}
