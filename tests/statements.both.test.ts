/**
 * Every statement compiled with lib/db's `statement()` (docs/decisions/045) is prepared against the
 * migrated schema, on PGlite and on PostgreSQL: a column, table or type that does not exist, a
 * parameter whose type cannot be told, or SQL one of the two databases does not take fails here,
 * naming the statement, before any request runs it. Statements built per call (the dashboard's
 * lists with their filters) are run by their own tests with every filter set.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { compiledStatements } from '@/lib/db/sql';
import { openTestDatabase } from './support/database';

// The modules of lib/ that compile statements (importing one compiles its statements); others may
// not be importable here (a worker thread's entry point).
const sources = import.meta.glob<string>(['/lib/**/*.ts', '!/lib/**/*.test.ts', '!/lib/**/*.d.ts'], { query: '?raw', import: 'default', eager: true });
const modules = import.meta.glob(['/lib/**/*.ts', '!/lib/**/*.test.ts', '!/lib/**/*.d.ts']);

let db: Database;
beforeAll(async () => {
  for (const [file, load] of Object.entries(modules)) if (/\bstatement[<(]/.test(sources[file]!)) await load();
  db = await openTestDatabase();
});
afterAll(() => db?.close());

describe('every statement of lib/', () => {
  it('is compiled when its module loads (there are some)', () => {
    expect(compiledStatements().length).toBeGreaterThan(20);
  });

  it('prepares against the migrated schema', async () => {
    const refused: string[] = [];
    for (const [i, statement] of compiledStatements().entries()) {
      const name = `statement_check_${i}`;
      try {
        await db.query(`prepare ${name} as ${statement.text}`);
        await db.query(`deallocate ${name}`);
      } catch (error) {
        refused.push(`${statement.name ?? `#${i}`}: ${(error as Error).message}\n  ${statement.text.replace(/\s+/g, ' ').slice(0, 300)}`);
      }
    }
    expect(refused, `statements the ${process.env.TEST_DB} database refuses (${path.basename(import.meta.url)})`).toEqual([]);
  });
});
