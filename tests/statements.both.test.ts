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
const sources = import.meta.glob<string>(['/lib/**/*.ts', '!/lib/**/*.test.ts', '!/lib/**/*.d.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});
const modules = import.meta.glob(['/lib/**/*.ts', '!/lib/**/*.test.ts', '!/lib/**/*.d.ts']);

let db: Database;
/** The modules that write `statement(`, as paths from the repository's root. */
const compiling = Object.keys(modules).filter(
  (file) => /\bstatement[<(]/.test(sources[file]!) && !file.endsWith('/lib/db/sql.ts'),
);
beforeAll(async () => {
  for (const file of compiling) await modules[file]!();
  db = await openTestDatabase();
});
afterAll(() => db?.close());

describe('every statement of lib/', () => {
  it('is compiled when its module loads, by every module that writes one', () => {
    const sources = new Set(compiledStatements().map((s) => s.source && path.relative(process.cwd(), s.source)));
    expect(compiling.map((file) => file.slice(1)).filter((file) => !sources.has(file))).toEqual([]);
  });

  it('prepares against the migrated schema', async () => {
    const refused: string[] = [];
    for (const [i, statement] of compiledStatements().entries()) {
      const name = `statement_check_${i}`;
      try {
        await db.query(`prepare ${name} as ${statement.text}`);
        await db.query(`deallocate ${name}`);
      } catch (error) {
        const where = statement.source ? path.relative(process.cwd(), statement.source) : 'unknown module';
        refused.push(
          `${where} ${statement.name ?? `#${i}`}: ${(error as Error).message}\n  ${statement.text.replace(/\s+/g, ' ').slice(0, 300)}`,
        );
      }
    }
    expect(
      refused,
      `statements the ${process.env.TEST_DB} database refuses (${path.basename(import.meta.url)})`,
    ).toEqual([]);
  });
});
