/**
 * Vitest global set-up of the PGlite project: one migrated embedded database, dumped to a file that
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

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  const pg = await PGlite.create('memory://');
  // Each test file still runs the product's migrate() on its copy: anything missing here runs there.
  await migrate(drizzle(pg), { migrationsFolder: MIGRATIONS_FOLDER });
  const dump = await pg.dumpDataDir('none');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
