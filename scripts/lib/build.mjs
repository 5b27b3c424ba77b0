// Shared by `npm start` and `npm test`: build the app when the build is missing or stale.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const SOURCES = [
  'app',
  'components',
  'lib',
  'public',
  'instrumentation.ts',
  'proxy.ts',
  'next.config.mjs',
  'scripts/lib/server-external-packages.mjs',
  'package.json',
  'tailwind.config.ts',
  'postcss.config.mjs',
];

function newestSource(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(full).map((child) => newestSource(path.join(entry, child))));
}

// The newest source time the build saw, taken before it started: an edit made while a build
// runs must make that build stale, which the build's own file times would hide.
const STAMP = path.join(root, '.next', 'source-stamp');
const sourcesTime = () => Math.max(...SOURCES.map(newestSource));

export function buildIsCurrent() {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID')) || !fs.existsSync(STAMP)) return false;
  return sourcesTime() <= Number(fs.readFileSync(STAMP, 'utf8'));
}

/**
 * Runs `next build` unless the build is current; exits the process when the build fails. Resolves
 * once it is done, leaving the event loop free meanwhile (`npm test` times the checks beside it).
 */
export async function ensureBuild() {
  if (buildIsCurrent()) return;
  console.log('Building the gateway (first start or changed sources)...');
  const seen = sourcesTime();
  const build = spawn(process.execPath, [nextBin, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const status = await new Promise((resolve) => build.once('close', (code) => resolve(code)));
  if (status !== 0) process.exit(status ?? 1);
  fs.writeFileSync(STAMP, String(seen));
}
