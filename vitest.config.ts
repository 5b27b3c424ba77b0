import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
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
 * Two projects: unit tests and the storage/API suite on PGlite, and the storage/API suite again
 * on PostgreSQL (TEST_PG_URL, set up by `npm test`).
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
          name: 'pglite',
          include: ['lib/**/*.test.ts', 'eslint/**/*.test.ts', 'tests/**/*.test.ts'],
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
          env: { TEST_DB: 'postgres' },
        },
      },
    ],
  },
});
