import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config';

/**
 * The tests `npm run mutate` runs against each mutant (stryker.config.mjs): the unit tests of the
 * mutated modules, on the embedded database in memory, beside their code. The integration tests
 * in tests/ run a production build, which would never see a mutant.
 */
export default defineConfig({
  ...shared,
  test: {
    include: ['lib/{orders,deposits,money,api}/**/*.test.ts'],
    env: { TEST_DB: 'pglite' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
