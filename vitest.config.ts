import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import type { InlineConfig } from 'vitest/node';
import { SlowFilesFirst } from './tests/support/sequencer.ts';
import { filesStartingAGateway } from './tests/support/test-projects.ts';

const root = path.dirname(new URL(import.meta.url).pathname);
/** Module resolution of every Vitest run (also stryker.vitest.config.ts). */
export const shared = {
  resolve: {
    alias: {
      '@': root,
      // Next.js resolves 'server-only' to an empty module on the server; so do tests.
      'server-only': path.join(root, 'tests/support/server-only.ts'),
    },
  },
};

/**
 * A test file's name says which databases it runs on (docs/decisions/043), so that a new file
 * needs no edit here, and lint (`architecture/test-databases`) checks that a file which opens a
 * database says so:
 *
 * - `name.test.ts`: no database; the unit project, one process per worker for all such files;
 * - `name.pglite.test.ts`: the embedded database only (its lock, the CLIs beside the server that
 *   holds it, the demo store);
 * - `name.pg.test.ts`: PostgreSQL only (several processes on one database, LISTEN/NOTIFY), and
 *   every file whose subject does not depend on the database (the API, the chains, the pages'
 *   data), run once, on the faster of the two;
 * - `name.both.test.ts`: both, where they can differ (SQL, locking, concurrency, migrations).
 */
const ON_PGLITE = ['**/*.pglite.test.ts', '**/*.both.test.ts'];
const ON_POSTGRES = ['**/*.pg.test.ts', '**/*.both.test.ts'];
const WITH_A_DATABASE = ['**/*.pglite.test.ts', '**/*.pg.test.ts', '**/*.both.test.ts'];

/**
 * A database test file shares a worker process with the files run before it (`isolate: false`),
 * and its leftovers are undone after it (support/file-isolation.ts): starting a process and
 * importing the module graph per file was half of these projects' CPU (decision 078). A file
 * whose text starts the in-process gateway (support/test-projects.ts) runs in the `-gateway`
 * project of its database, whose files share their worker's one gateway server too (the Next.js
 * app prepared once, support/gateway.ts): preparing it was most of such a file's set-up. The
 * file's text decides, so a new file needs no edit here.
 */
const STARTS_A_GATEWAY = filesStartingAGateway(root, ['.pglite.test.ts', '.pg.test.ts', '.both.test.ts']);
const gatewayFilesOn = (suffixes: string[]) =>
  STARTS_A_GATEWAY.filter((file) => suffixes.some((suffix) => file.endsWith(suffix)));

/** The projects of one database: its files that share a process, and those that start a gateway. */
function databaseProjects(
  name: string,
  include: string[],
  suffixes: string[],
  extra: InlineConfig,
): TestProjectInlineConfiguration[] {
  const setupFiles = ['tests/support/test-env.ts'];
  return [
    {
      ...shared,
      extends: true,
      test: {
        name,
        include,
        exclude: [...configDefaults.exclude, ...STARTS_A_GATEWAY],
        setupFiles: [...setupFiles, 'tests/support/file-isolation.ts'],
        isolate: false,
        ...extra,
      },
    },
    {
      ...shared,
      extends: true,
      test: {
        name: `${name}-gateway`,
        include: gatewayFilesOn(suffixes),
        setupFiles: [...setupFiles, 'tests/support/file-isolation.ts'],
        isolate: false,
        ...extra,
      },
    },
  ];
}

/**
 * Five projects: the unit tests, one process per worker for all of them (a process per file
 * cost more than the tests); the storage/API suite on PGlite and again on PostgreSQL
 * (TEST_PG_URL, set up by `npm test`), each split into files that share a process and files that
 * start a gateway, which share a process and its gateway server.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    // Vitest's default on two cores is one file at a time; a file spends much of its time waiting
    // for the servers, CLIs and nodes it started, so two share the machine better.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    sequence: { sequencer: SlowFilesFirst },
    // A bound for a failure, never a wait: tests drive real nodes, servers and databases, and on a
    // two-core machine shared with other work a test that takes 10 s quiet can pass 30 s (seen:
    // tests/live-resilience.pg.test.ts beside two CPU-bound processes).
    testTimeout: 120_000,
    // Set-up starts gateways, servers and nodes: on a two-core machine shared with other work
    // that can take minutes. Generous, since it only bounds a failure.
    hookTimeout: 300_000,
    projects: [
      {
        ...shared,
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'eslint/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...WITH_A_DATABASE],
          isolate: false,
        },
      },
      ...databaseProjects('pglite', ON_PGLITE, ['.pglite.test.ts', '.both.test.ts'], {
        env: { TEST_DB: 'pglite' },
        globalSetup: ['tests/support/pglite-template.ts'],
      }),
      ...databaseProjects('postgres', ON_POSTGRES, ['.pg.test.ts', '.both.test.ts'], {
        env: { TEST_DB: 'postgres' },
        globalSetup: ['tests/support/postgres-template.ts'],
      }),
    ],
  },
});
