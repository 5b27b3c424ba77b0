/**
 * Small labels of a state. The word carries the meaning; the colour only repeats it, in the tones of
 * app/globals.css (docs/decisions/101). Server-safe.
 */
import type { ReactNode } from 'react';

const TONES = {
  good: 'bg-good-surface text-good-ink',
  bad: 'bg-bad-surface text-bad-ink',
  wait: 'bg-wait-surface text-wait-ink',
  neutral: 'bg-quiet-surface text-ink',
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${TONES[tone]}`}>{children}</span>;
}

/** How a status value reads: the words of lib/protocol's status lists (and a chain watcher's state), by their meaning. */
export function statusTone(status: string): BadgeTone {
  const s = status.toLowerCase();
  if (['processed', 'overpaid', 'delivered', 'watching'].includes(s)) return 'good';
  if (['error', 'failed', 'refused', 'rejected', 'reversed', 'partial', 'unhealthy'].includes(s)) return 'bad';
  if (['pending', 'init', 'created', 'starting'].includes(s)) return 'wait';
  return 'neutral';
}

/**
 * A status as a badge. One casing on every list: the API answers orders' statuses in lower case and
 * invoices' and deposits' in upper case (`processed`, `PROCESSED`), and a merchant reading both
 * lists sees one word.
 */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{status.toLowerCase().replaceAll('_', ' ')}</Badge>;
}
