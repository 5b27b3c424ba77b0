import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * A new temporary directory for the test file that calls this at its top level (the signer's
 * seed, plans and ledger files, say), removed after the file's last test: the database projects
 * run many files in one process, and a machine that runs the suite often kept every one.
 */
export function fileTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
