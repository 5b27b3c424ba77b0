/**
 * The first start's demo merchant: its private API key and its owner's set-up link (which makes
 * whoever holds it the owner) are shown on a terminal, and never written to a log; a log is told
 * which owner-only file holds them (issue 34). The server's real output, piped, is checked by
 * tests/keys-cli.both.test.ts ("first start").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { DEMO_OWNER_EMAIL, ensureDemoMerchant, FIRST_START_FILE } from '@/lib/server/demo-merchant';
import { readLink } from '@/lib/users';
import { openTestDatabase } from './support/database';

const opened: Database[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A first start on a fresh database and data directory, told to `isTTY` output: what it wrote, and where. */
async function firstStart(isTTY: boolean) {
  const db = await openTestDatabase();
  opened.push(db);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-first-start-'));
  dirs.push(dataDir);
  let written = '';
  const demo = (await ensureDemoMerchant(db, dataDir, { isTTY, write: (text) => (written += text) }))!;
  const file = path.join(dataDir, FIRST_START_FILE);
  const kept = fs.readFileSync(file, 'utf8');
  const link = /\/dashboard\/set-up\/([A-Za-z0-9_-]{43})/.exec(kept);
  return { db, demo, written, file, kept, token: link?.[1] };
}

it('writes neither the private key nor the set-up link to a log, and says which owner-only file holds them', async () => {
  const { db, demo, written, file, kept, token } = await firstStart(false);
  expect(written).not.toContain(demo.privateKey);
  expect(written).not.toContain('/dashboard/set-up/');
  expect(written).toContain(file);
  expect(written).toContain(DEMO_OWNER_EMAIL);
  // The file holds what a terminal would have shown, for this user only; its link is live.
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(kept).toContain(demo.privateKey);
  expect(token).toBeDefined();
  expect(await readLink(db, token!)).toMatchObject({ email: DEMO_OWNER_EMAIL, purpose: 'set-up' });
});

it('shows them once on a terminal', async () => {
  const { demo, written, file, token } = await firstStart(true);
  expect(written).toContain(`private key: ${demo.privateKey}`);
  expect(written).toContain(`/dashboard/set-up/${token}`);
  expect(written).toContain(file);
});
