'use client';
/**
 * The CSV export: a GET form to /dashboard/export, which downloads the file directly without
 * JavaScript. With JavaScript, the same request is streamed with fetch so that a large export
 * shows its progress (rows received of the total the server announces in `x-total-rows`), then
 * the file is offered from memory (a Blob) under the server's file name.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LINK } from './ui';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

interface Props {
  kind: 'orders' | 'invoices';
  /** Default range, `YYYY-MM-DD` (UTC). */
  from: string;
  to: string;
}

type State =
  | { phase: 'idle' }
  | { phase: 'running'; rows: number; total?: number }
  | { phase: 'done'; rows: number; url: string; filename: string }
  | { phase: 'failed'; message: string };

/** Counts CSV records (line ends outside quoted fields) across chunks. */
function recordCounter() {
  let quoted = false;
  let lines = 0;
  return (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) quoted = !quoted;
      else if (c === 10 && !quoted) lines++;
    }
    return lines;
  };
}

function filenameOf(response: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

export function ExportBox({ kind, from, to }: Props) {
  const [state, setState] = useState<State>({ phase: 'idle' });
  const objectUrl = useRef<string | undefined>(undefined);
  // A finished file is held in memory until the next export or until the page is left.
  useEffect(
    () => () => {
      if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    },
    [],
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    objectUrl.current = undefined;
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(event.currentTarget)) if (typeof value === 'string') query.set(key, value);
    setState({ phase: 'running', rows: 0 });
    try {
      const response = await fetch(`/dashboard/export?${query.toString()}`, { headers: { accept: 'text/csv' } });
      if (!response.ok || !response.body) {
        const text = await response.text().catch(() => '');
        let message = `The export failed (${response.status}).`;
        try {
          const body = JSON.parse(text) as { error?: { message?: string } | string };
          message = typeof body.error === 'string' ? body.error : (body.error?.message ?? message);
        } catch {
          // Not JSON: keep the status.
        }
        setState({ phase: 'failed', message });
        return;
      }
      const header = Number(response.headers.get('x-total-rows'));
      const total = Number.isSafeInteger(header) && header >= 0 ? header : undefined;
      const count = recordCounter();
      const decoder = new TextDecoder();
      const parts: BlobPart[] = [];
      const reader = response.body.getReader();
      let lines = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parts.push(value);
        lines = count(decoder.decode(value, { stream: true }));
        // The first line is the header, not a row.
        setState({ phase: 'running', rows: Math.max(0, lines - 1), total });
      }
      const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv' }));
      objectUrl.current = url;
      setState({ phase: 'done', rows: Math.max(0, lines - 1), url, filename: filenameOf(response, `${kind}.csv`) });
    } catch {
      setState({ phase: 'failed', message: 'The export was interrupted. Try again.' });
    }
  }

  return (
    <section aria-labelledby="export-title" className="mt-6 rounded-lg border border-line p-4">
      <h2 id="export-title" className="text-lg font-semibold">
        Export CSV
      </h2>
      <form method="get" action="/dashboard/export" onSubmit={onSubmit} className="mt-2 flex flex-wrap items-end gap-3">
        <input type="hidden" name="kind" value={kind} />
        <div>
          <Label htmlFor="export-from">From (UTC)</Label>
          <Input id="export-from" type="date" name="from" required defaultValue={from} />
        </div>
        <div>
          <Label htmlFor="export-to">To (UTC, inclusive)</Label>
          <Input id="export-to" type="date" name="to" required defaultValue={to} />
        </div>
        <Button type="submit" variant="primary" disabled={state.phase === 'running'}>
          Export CSV
        </Button>
      </form>
      <div aria-live="polite" className="mt-3 text-sm">
        {state.phase === 'running' ? (
          <>
            <label htmlFor="export-progress" className="block">
              {state.total === undefined
                ? `${state.rows} rows received`
                : `${state.rows} of ${state.total} rows received`}
            </label>
            <progress id="export-progress" className="w-full" value={state.rows} max={state.total || undefined} />
          </>
        ) : null}
        {state.phase === 'done' ? (
          <p>
            {`${state.rows} rows ready. `}
            <a href={state.url} download={state.filename} className={LINK} data-testid="export-file">
              {`Save ${state.filename}`}
            </a>
          </p>
        ) : null}
        {state.phase === 'failed' ? (
          <p role="alert" className="text-bad-text">
            {state.message}
          </p>
        ) : null}
      </div>
    </section>
  );
}
