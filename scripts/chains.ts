/**
 * `npm run chains -- status [--url URL] [--json]`: each network the gateway watches, from the
 * process that watches it (its `/ops/chains`, lib/ops/chains.ts): head, cursor, lag, healthy or
 * why not, and each node of a live network. By default it asks the server on this machine
 * (`http://127.0.0.1:PORT`); a separate `npm run worker` answers on its WORKER_OPS_PORT. Sends
 * `Authorization: Bearer $METRICS_TOKEN` when that is set (needed from another machine).
 *
 * Exit status: 0 when every network is healthy, 1 when one is not, 2 when the answer cannot be had.
 */
import { z } from 'zod';
import { config } from '../lib/config';
import { fail } from './cli-runtime';

const USAGE = `usage: npm run chains -- status [--url http://127.0.0.1:PORT] [--json]

  --url   the process that runs the watchers: the server (default http://127.0.0.1:$PORT)
          or a worker started with WORKER_OPS_PORT
  --json  the answer as the endpoint gives it`;

const node = z.object({
  node: z.string(),
  state: z.string(),
  height: z.number().nullable(),
  error: z.string().nullable(),
  retryAt: z.string().nullable(),
});
const answer = z.object({
  watching: z.boolean(),
  runWorkers: z.boolean(),
  networks: z.array(
    z.object({
      network: z.string(),
      mode: z.string(),
      healthy: z.boolean(),
      problem: z.string().nullable(),
      head: z.number().nullable(),
      cursor: z.number().nullable(),
      lagBlocks: z.number().nullable(),
      lastPassSecondsAgo: z.number().nullable(),
      nodes: z.array(node).nullable(),
      usableNodes: z.number().nullable(),
    }),
  ),
});

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  return args[at + 1];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (args[0] !== 'status') fail(USAGE);
  const known = new Set(['status', '--url', '--json']);
  const unknown = args.filter((a, i) => !known.has(a.split('=')[0]!) && args[i - 1] !== '--url');
  if (unknown.length) fail(`unknown argument ${unknown[0]}\n${USAGE}`);
  const cfg = config();
  const base = (option(args, 'url') ?? `http://127.0.0.1:${cfg.port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(base)) fail(`--url must be http(s)://host:port, not ${base}`);

  const response = await fetch(`${base}/ops/chains`, {
    headers: cfg.metricsToken ? { authorization: `Bearer ${cfg.metricsToken}` } : {},
    signal: AbortSignal.timeout(10_000),
  }).catch((error: unknown) =>
    fail(
      `Nothing answers at ${base} (${(error as Error).message}). Is the gateway running there? A worker answers only with WORKER_OPS_PORT set.`,
    ),
  );
  const text = await response.text();
  if (response.status === 403) fail(`${base} refused: from another machine, set METRICS_TOKEN to the gateway's.`);
  if (!response.ok) fail(`${base}/ops/chains answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  let parsed: z.infer<typeof answer>;
  try {
    parsed = answer.parse(JSON.parse(text));
  } catch {
    fail(`${base}/ops/chains did not answer chain status (is it this gateway?)`);
  }
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(parsed, null, 2)}\n`);
  } else {
    process.stdout.write(describe(parsed, base));
  }
  process.exitCode = parsed.networks.every((n) => n.healthy) ? 0 : 1;
}

function describe(status: z.infer<typeof answer>, base: string): string {
  if (!status.watching) {
    return `${base} runs no watcher (RUN_WORKERS=${status.runWorkers}): ask the \`npm run worker\` process, started with WORKER_OPS_PORT.\n`;
  }
  if (status.networks.length === 0) return 'No network is watched.\n';
  const lines: string[] = [];
  const dash = (v: number | null) => (v === null ? '-' : String(v));
  for (const n of status.networks) {
    const nodes = n.nodes ? `, nodes ${n.usableNodes} of ${n.nodes.length} usable` : '';
    const pass = n.lastPassSecondsAgo === null ? 'no pass yet' : `last pass ${n.lastPassSecondsAgo} s ago`;
    lines.push(
      `${n.mode}/${n.network}: ${n.healthy ? 'healthy' : 'NOT HEALTHY'}, head ${dash(n.head)}, cursor ${dash(n.cursor)}, lag ${dash(n.lagBlocks)}, ${pass}${nodes}`,
    );
    if (n.problem) lines.push(`    ${n.problem}`);
    for (const x of n.nodes ?? []) {
      const retry = x.retryAt
        ? `, asked again in ${Math.max(0, Math.round((Date.parse(x.retryAt) - Date.now()) / 1000))} s`
        : '';
      lines.push(`    ${x.node}  ${x.state}, height ${dash(x.height)}${retry}${x.error ? `: ${x.error}` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

void main();
