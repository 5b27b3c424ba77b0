import type { RunnerTestCase } from 'vitest';
import { defineConfig } from 'vitest/config';
import type { Reporter, Vitest } from 'vitest/node';
import { shared } from './vitest.config';

/**
 * A test file that cannot even be imported fails one test of its own. Stryker's Vitest runner
 * scores a mutant by the tests it collected, and a file whose import throws collects none, so a
 * mutant that breaks a module at load (`DEPOSIT_STATES` of undefined, which WITHDRAWALS then reads)
 * was reported as survived although the suite fails on it (stryker-js issue #6150, open in 9.6.1).
 */
function loadFailuresAsTests(): Reporter {
  let vitest: Vitest;
  return {
    onInit(ctx) {
      vitest = ctx;
    },
    onTestRunEnd() {
      for (const file of vitest.state.getFiles()) {
        if (file.result?.state !== 'fail' || file.tasks.length > 0) continue;
        // Only what Stryker reads of a test: its name, where it is, and how it ended.
        const test = {
          type: 'test',
          id: `${file.id}_load`,
          name: 'loads',
          mode: 'run',
          file,
          suite: file,
          meta: {},
          result: { state: 'fail', errors: file.result.errors },
        };
        file.tasks.push(test as unknown as RunnerTestCase);
      }
    },
  };
}

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
    reporters: ['default', loadFailuresAsTests()],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
