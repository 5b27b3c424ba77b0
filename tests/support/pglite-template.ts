/**
 * Vitest global set-up of the PGlite projects: one migrated embedded database, dumped to a file that
 * every test file's in-memory database starts from (support/database.ts). A new PGlite cluster
 * runs initdb, about 10 s of CPU on this machine; loading the dump takes a third of that, and
 * some thirty files open one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER } from '@/lib/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dump's path; absent when a run has no such set-up (npm run mutate). */
    pgliteTemplate?: string;
  }
}

/** The run's template, made once for both PGlite projects (vitest.config.ts), and how many use it. */
interface Template {
  made: Promise<{ dir: string; file: string }>;
  users: number;
}
// On globalThis under a name of its own: the runner's main process, none of the gateway's slots
// (lib/process makes every Symbol.for key).
const TEMPLATE = 'cryptogateTestPgliteTemplate';

async function makeTemplate(): Promise<{ dir: string; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  const pg = await PGlite.create('memory://');
  // Each test file still runs the product's migrate() on its copy: anything missing here runs there.
  await migrate(drizzle(pg), { migrationsFolder: MIGRATIONS_FOLDER });
  const dump = await pg.dumpDataDir('none');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  return { dir, file };
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Vitest may load this module once per project: the template is kept on globalThis instead.
  const holder = globalThis as { [TEMPLATE]?: Template };
  const template = (holder[TEMPLATE] ??= { made: makeTemplate(), users: 0 });
  template.users++;
  const { dir, file } = await template.made;
  project.provide('pgliteTemplate', file);
  return () => {
    if (--template.users > 0) return;
    delete holder[TEMPLATE];
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
