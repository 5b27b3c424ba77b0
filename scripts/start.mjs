#!/usr/bin/env node
// `npm start`: builds the app when the build is missing or older than the sources, then serves
// it with `next start` on HOST:PORT (default 127.0.0.1:3000). Start-up itself (database,
// migrations, demo merchant) happens in instrumentation.ts.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const SOURCES = ['app', 'components', 'lib', 'public', 'instrumentation.ts', 'next.config.mjs', 'package.json', 'tailwind.config.ts', 'postcss.config.mjs'];

function newestSource(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(full).map((child) => newestSource(path.join(entry, child))));
}

function buildIsCurrent() {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return false;
  const built = fs.statSync(buildId).mtimeMs;
  return SOURCES.every((entry) => newestSource(entry) <= built);
}

if (!buildIsCurrent()) {
  console.log('Building the gateway (first start or changed sources)...');
  const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT ?? '3000';
const host = process.env.HOST ?? '127.0.0.1';
const server = spawn(process.execPath, [nextBin, 'start', '-p', port, '-H', host], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: port, HOST: host, NEXT_TELEMETRY_DISABLED: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
