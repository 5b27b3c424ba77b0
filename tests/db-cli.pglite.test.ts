/**
 * `npm run db -- export|import` as an operator runs them: refused while another process holds the
 * embedded data directory (nothing written); from one PostgreSQL database to a file and into a new
 * one, saying what it verified; a target that is not empty refused. The engine and the move from
 * the embedded database are tested in tests/db-transfer.pglite.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { acquireDataDir, releaseDataDir } from '@/lib/db/lock';
import { runCli } from './support/cli';
import { openPostgresTestDatabase } from './support/database';
import { createTestMerchant } from './support/merchants';

const APP_SECRET = 'test-app-secret-that-is-at-least-32-characters';
let dir: string;
let source: { db: Database; url: string };
let target: { db: Database; url: string };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-db-cli-'));
  [source, target] = await Promise.all([openPostgresTestDatabase(), openPostgresTestDatabase()]);
  await createTestMerchant(source.db, 'Exported shop');
});
afterAll(async () => {
  await source?.db.close();
  await target?.db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) => {
  const base: NodeJS.ProcessEnv = { ...process.env, APP_SECRET, LOG_LEVEL: 'warn', DEMO_STORE: 'false', ...extra };
  if (!extra.DATABASE_URL) delete base.DATABASE_URL;
  return base;
};

describe('npm run db', () => {
  it('refuses to export an embedded database another process holds, and writes no file', async () => {
    const dataDir = path.join(dir, 'held');
    fs.mkdirSync(dataDir);
    acquireDataDir(dataDir);
    try {
      const file = path.join(dir, 'held.export');
      const result = await runCli(env({ DATA_DIR: dataDir }), 'db', 'export', file);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/in use by process \d+/);
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      releaseDataDir(dataDir);
    }
  });

  it('exports one database and imports it into a new one, verified; an existing file or a full target is refused', async () => {
    const file = path.join(dir, 'shop.export');
    const exported = await runCli(env({ DATABASE_URL: source.url }), 'db', 'export', file);
    expect(exported.stderr).toBe('');
    expect(exported.stdout).toMatch(/^ {2}merchants +1 rows {2}sha256 [0-9a-f]{16}$/m);
    expect(exported.stdout).toMatch(/Exported \d+ rows of \d+ tables and \d+ sequences at migration \d+\./);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await runCli(env({ DATABASE_URL: source.url }), 'db', 'export', file)).stderr).toMatch(
      /exists; choose another name or add --force/,
    );

    const imported = await runCli(env({ DATABASE_URL: target.url }), 'db', 'import', file);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toMatch(/Imported and verified \d+ rows of \d+ tables \(counts and checksums equal\)/);
    const [merchant] = await target.db.query<{ name: string }>('select name from merchants');
    expect(merchant!.name).toBe('Exported shop');

    const again = await runCli(env({ DATABASE_URL: target.url }), 'db', 'import', file);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/not empty \(table \w+ has rows\)/);
  });
});
