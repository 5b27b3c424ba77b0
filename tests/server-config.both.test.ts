/**
 * scripts/server.mjs refuses a bad PORT with the configuration error naming the variable,
 * before it opens anything: exit code 1, nothing written to the data directory. It says
 * "Ready on ..." only once start-up has finished, never before an error stops it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { freePort } from '../scripts/lib/postgres.mjs';
import { newDataDir, SHORT_LIVED } from './support/cli';
import { childEnv } from './support/test-env';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const run = promisify(execFile);

it.each([
  ['PORT', 'abc'],
  ['PORT', '70000'],
])('stops on %s=%s with a message naming it', async (name, value) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-server-config-'));
  try {
    const failed = await run(process.execPath, [path.join(ROOT, 'scripts/server.mjs')], {
      cwd: ROOT,
      env: { ...childEnv(), DATA_DIR: dataDir, [name]: value },
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(new RegExp(`The gateway cannot start: Invalid configuration:\\n\\s+${name}: `));
    expect(fs.readdirSync(dataDir)).toEqual([]);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** scripts/server.mjs on `dataDir` until it exits or prints "Ready on": its output and exit code (null while running). */
function startUntilReadyOrExit(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; stdout: string; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [...SHORT_LIVED, path.join(ROOT, 'scripts/server.mjs')], {
    cwd: ROOT,
    env: { ...childEnv(), LOG_LEVEL: 'info', ...env },
  });
  let stdout = '';
  let stderr = '';
  return new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('Ready on')) resolve({ child, stdout, stderr, code: null });
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ child, stdout, stderr, code }));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

// The embedded database's server; nothing here depends on the database, so once is enough.
const embeddedOnly = it.skipIf(process.env.TEST_DB === 'postgres');

embeddedOnly(
  'prints "Ready" only once start-up has finished, naming the URL payment links use',
  async () => {
    const dataDir = newDataDir('gw-server-ready-');
    const port = String(await freePort());
    const started = await startUntilReadyOrExit({ DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1' });
    try {
      expect(started.code).toBeNull();
      const ready = started.stdout.indexOf(`Ready on http://127.0.0.1:${port}\n`);
      expect(ready).toBeGreaterThan(-1);
      // Start-up (database, demo merchant, workers) was done before the line was printed.
      expect(started.stdout.indexOf('"msg":"gateway started"')).toBeGreaterThan(-1);
      expect(started.stdout.indexOf('"msg":"gateway started"')).toBeLessThan(ready);
      expect(fs.existsSync(path.join(dataDir, 'demo-store.json'))).toBe(true);

      // A second server on the same data directory stops with the reason, and never says it is ready.
      const second = await startUntilReadyOrExit({
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
      });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/The gateway cannot start: .*in use/);
      expect(second.stdout).not.toContain('Ready on');
    } finally {
      await stop(started.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
  120_000,
);

embeddedOnly(
  'never prints "Ready" when the configuration stops start-up',
  async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-server-ready-'));
    try {
      const failed = await startUntilReadyOrExit({
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        PUBLIC_BASE_URL: 'ftp://x',
      });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/The gateway cannot start: Invalid configuration:\n\s+PUBLIC_BASE_URL: /);
      expect(failed.stdout).not.toContain('Ready on');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
  120_000,
);
