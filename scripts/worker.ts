/**
 * npm run worker: the chain workers (a watcher per network and mode, the expiry sweeper, the
 * sandbox miner) in their own process, for PostgreSQL deployments where web servers run with
 * RUN_WORKERS=false (the default there). Any number may run: each network's cursor is locked
 * while it is scanned, so two workers never credit the same transfer. On the embedded database
 * the server runs them itself, and this refuses to start while a server holds the data directory.
 */
import http from 'node:http';
import { config } from '../lib/config';
import { getDatabase } from '../lib/db';
import { log } from '../lib/log';
import { serveOps } from '../lib/ops';
import { startWorkers } from '../lib/watcher';
import { commandLine, fail } from './cli-runtime';
import { UsageError } from './lib/command-line';

/**
 * A watcher pass or webhook claim waits this long for a pooled connection: more networks than
 * DB_POOL_SIZE take turns instead of failing after the web server's one second.
 */
const CONNECTION_WAIT_MS = 30_000;

const USAGE = `usage: npm run worker
  Runs the chain workers (a watcher per network and mode, the expiry sweeper, the sandbox miner)
  until SIGINT or SIGTERM. It takes no arguments: its settings are the environment's, as the
  server's (docs/configuration.md).`;

async function main(): Promise<void> {
  commandLine(USAGE, (args) => {
    if (args.length > 0) throw new UsageError(`Unexpected argument '${args[0]}'.\n${USAGE}`);
  });
  const cfg = config();
  const db = await getDatabase({}, { connectionWaitMs: CONNECTION_WAIT_MS });
  const workers = startWorkers(db);
  const ops = cfg.workerOps ? await listenForOps(cfg.workerOps) : undefined;
  log.info('worker running', { database: db.kind, dataDir: cfg.databaseUrl ? undefined : cfg.dataDir, ops: ops?.url });
  const stop = async (signal: string) => {
    log.info('worker stopping', { signal });
    ops?.server.close();
    await workers.stop();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

/** The operations endpoints on their own port: a worker serves nothing else. */
function listenForOps({ port, host }: { port: number; host: string }): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    if (!serveOps(req, res))
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'not found: /healthz, /readyz, /metrics, /ops/chains' }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`WORKER_OPS_PORT ${port} on ${host}: ${error.message}`)));
    server.listen(port, host, () =>
      resolve({ server, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}` }),
    );
  });
}

main().catch((error: unknown) =>
  fail(`The worker cannot start: ${error instanceof Error ? error.message : String(error)}`),
);
