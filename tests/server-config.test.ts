/**
 * scripts/server.mjs refuses a bad PORT with the configuration error naming the variable,
 * before it opens anything: exit code 1, nothing written to the data directory.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

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
      env: { ...process.env, DATA_DIR: dataDir, [name]: value },
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
