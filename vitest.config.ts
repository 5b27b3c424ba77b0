import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './tests/support/sequencer';

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
 * Files whose subject exists with one database only, run in that project alone (a file skipped in
 * a project would still cost a process and its imports there).
 */
const EMBEDDED_ONLY = [
  'tests/db-cli.test.ts', // the CLI against the embedded lock and the run's PostgreSQL (TEST_PG_URL)
  'tests/db-transfer.test.ts', // from the embedded database into the run's PostgreSQL (TEST_PG_URL)
  'tests/api-slow-bodies.test.ts', // the node:http front's body handling: no storage
  'tests/client.test.ts', // the typed client's retries against stand-in servers
  'tests/crash-restart.test.ts', // the embedded database's single-owner lock
  'tests/http-server.test.ts', // the HTTP server under a burst: no storage
  'tests/live-failover.test.ts', // which node answers: nothing of it depends on the database
  'tests/live-failover-fakes.test.ts', // idem
  'tests/live-new-blocks.test.ts', // when the watcher passes: idem
  'tests/sandbox-cli.test.ts', // the CLI opening the embedded database, or reaching the server holding it
  'tests/server-workers.test.ts', // the server runs the workers on the embedded database only
  'tests/store-webhooks.test.ts', // the demo store, which runs with the embedded database
  'tests/webhooks-cli.test.ts', // the CLI reaching the server that holds the embedded database
  'tests/users-cli.test.ts', // idem
];
const POSTGRES_ONLY = [
  'tests/database-close.test.ts', // LISTEN connections
  'tests/key-revocation.test.ts', // revocations announced to other servers with NOTIFY
  'tests/reuse-port.test.ts', // two servers on one port need a database both can open
  'tests/scale-out.test.ts', // two web servers and two npm run worker processes on one database
  'tests/webhooks-crash.test.ts', // npm run worker beside the server: one database, several processes
  'tests/worker-crash.test.ts', // idem
];

/** Unit tests that open a database: they run with the storage suite, from its migrated PGlite template. */
const UNIT_TESTS_WITH_A_DATABASE = ['lib/api/nonces.test.ts', 'lib/api/route.test.ts', 'lib/chains/sandbox/ledger.test.ts', 'lib/db/lock.test.ts'];

/**
 * Three projects: the unit tests, one process per worker for all of them (a process per file
 * cost more than the tests); the storage/API suite on PGlite, a process per file; and the
 * storage/API suite again on PostgreSQL (TEST_PG_URL, set up by `npm test`).
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
    // tests/live-resilience.test.ts beside two CPU-bound processes).
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
          include: ['lib/**/*.test.ts', 'eslint/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT_TESTS_WITH_A_DATABASE],
          isolate: false,
          env: { TEST_DB: 'pglite' },
        },
      },
      {
        ...shared,
        extends: true,
        test: {
          name: 'pglite',
          include: [...UNIT_TESTS_WITH_A_DATABASE, 'tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...POSTGRES_ONLY],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['tests/support/pglite-template.ts'],
        },
      },
      {
        ...shared,
        extends: true,
        test: {
          name: 'postgres',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...EMBEDDED_ONLY],
          env: { TEST_DB: 'postgres' },
        },
      },
    ],
  },
});
