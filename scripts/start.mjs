#!/usr/bin/env node
// `npm start`: builds the app when the build is missing or older than the sources, then serves
// it with scripts/server.mjs on HOST:PORT (default 127.0.0.1:3000). Start-up itself (database,
// migrations, demo merchant) happens in instrumentation.ts.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuild, root } from './lib/build.mjs';

await ensureBuild();
const port = process.env.PORT ?? '3000';
const host = process.env.HOST ?? '127.0.0.1';
const server = spawn(process.execPath, [path.join(root, 'scripts', 'server.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: port, HOST: host, NEXT_TELEMETRY_DISABLED: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
