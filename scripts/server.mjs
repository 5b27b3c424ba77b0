#!/usr/bin/env node
// The gateway's HTTP server on HOST:PORT (default 127.0.0.1:3000), run by `npm start` on the
// production build: Next.js in this process (start-up itself, database, migrations, demo
// merchant, workers, happens in instrumentation.ts while it prepares), behind a node:http
// listener that answers the merchant API without Next.js's per-request machinery
// (lib/api/http-front.ts; docs/decisions/012-merchant-api-front.md says why).
import { z } from 'zod';
import { root } from './lib/build.mjs';
import { createGatewayServer, gatewayStarted } from './lib/http-server.mjs';

// The variables this process needs before start-up reads the whole configuration (lib/config,
// which checks PORT and HOST the same way): a bad one stops here with its name, not with a stack
// from listen(). Empty means unset, as there.
const listenEnv = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  // Several servers on one port, the kernel spreading connections among them (SO_REUSEPORT):
  // only in the server, so only here.
  REUSE_PORT: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
});
const parsed = listenEnv.safeParse(
  Object.fromEntries(['PORT', 'HOST', 'REUSE_PORT'].filter((k) => process.env[k]).map((k) => [k, process.env[k]])),
);
const problems = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
// listen()'s reusePort came with Node 22.12 and 23.1; older versions ignore the option, and a
// second server would then fail with EADDRINUSE instead of sharing the port.
const [major, minor] = process.versions.node.split('.').map(Number);
const nodeHasReusePort = major >= 24 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
if (parsed.success && parsed.data.REUSE_PORT === 'true' && !nodeHasReusePort) {
  problems.push(`  REUSE_PORT: needs Node.js 22.12 or later (this is ${process.version})`);
}
if (problems.length > 0) {
  console.error(`The gateway cannot start: Invalid configuration:\n${problems.join('\n')}`);
  process.exit(1);
}
const { PORT: port, HOST: host, REUSE_PORT } = parsed.data;
const reusePort = REUSE_PORT === 'true';

process.env.NODE_ENV = 'production';
process.env.NEXT_TELEMETRY_DISABLED = '1';

const { default: next } = await import('next');
const app = next({ dev: false, dir: root, hostname: host, port });
await app.prepare();
const server = createGatewayServer(app.getRequestHandler());
server.on('error', (error) => {
  console.error(`The gateway cannot listen on ${host}:${port}: ${error.message}`);
  process.exit(1);
});
const listening = new Promise((resolve) => server.listen({ port, host, ...(reusePort && { reusePort }) }, resolve));
// Next.js runs start-up in the background once prepared (requests meanwhile wait for it in
// Next.js); a start-up that fails stops the process with its reason. So "Ready" is printed only
// once both are done, and names the URL payment links use.
const [{ publicBaseUrl }] = await Promise.all([gatewayStarted(), listening]);
const { address, port: bound } = server.address();
const listenAddress = `${address.includes(':') ? `[${address}]` : address}:${bound}`;
console.log(
  `Ready on ${publicBaseUrl}${publicBaseUrl === `http://${listenAddress}` ? '' : ` (listening on ${listenAddress})`}`,
);

// On SIGINT/SIGTERM: stop taking connections, let the requests under way finish (idle keep-alive
// connections are closed at once), then exit; at most SHUTDOWN_GRACE_MS.
const SHUTDOWN_GRACE_MS = 5000;
let stopping = false;
// Each step is logged, so that an operator who stopped the server sees that it did, and how.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(
      `Stopping (${signal}): no new connections; finishing the requests under way (at most ${SHUTDOWN_GRACE_MS / 1000} s)`,
    );
    server.close(() => {
      console.log('Stopped.');
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => {
      console.log(`Stopped after ${SHUTDOWN_GRACE_MS / 1000} s with requests still under way.`);
      process.exit(0);
    }, SHUTDOWN_GRACE_MS).unref();
  });
}
