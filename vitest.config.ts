import path from 'node:path';
import { defineConfig } from 'vitest/config';

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
    testTimeout: 30_000,
    hookTimeout: 120_000,
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
