/**
 * Vitest global set-up of the PostgreSQL projects: one migrated database on the run's server
 * (TEST_PG_URL), which every test file's new database copies (`create database ... template`,
 * support/database.ts). Migrating a new database cost its server about half a CPU-second, some
 * hundred times a run; a copy costs a tenth of that. Each file still runs the product's migrate()
 * on its copy, so a migration missing here runs there, and a migration PostgreSQL rejects fails here,
 * before any file starts.
 */
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER } from '@/lib/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database's name; absent when a run has no such set-up. */
    postgresTemplate?: string;
  }
}

interface Template {
  made: Promise<string>;
  users: number;
}
// On globalThis under a name of its own, as support/pglite-template.ts keeps its own: Vitest may
// load this module once per project.
const TEMPLATE = 'cryptogateTestPostgresTemplate';

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

async function makeTemplate(adminUrl: string): Promise<string> {
  const name = `gw_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // One connection, closed before any copy: PostgreSQL copies a template nobody is connected to.
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await pool.end();
  }
  return name;
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) return undefined;
  const holder = globalThis as { [TEMPLATE]?: Template };
  const template = (holder[TEMPLATE] ??= { made: makeTemplate(adminUrl), users: 0 });
  template.users++;
  project.provide('postgresTemplate', await template.made);
  return async () => {
    if (--template.users > 0) return;
    delete holder[TEMPLATE];
    await adminQuery(adminUrl, `drop database if exists ${await template.made} with (force)`);
  };
}
