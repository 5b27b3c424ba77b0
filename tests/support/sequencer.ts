import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (measured on a two-core machine; PGlite and
 * PostgreSQL projects), so that they start at once on the workers and the run ends on short
 * files instead of waiting for one long file started last. Vitest orders by the durations of
 * the previous run when it has them, but a fresh clone (CI) has none and would order by file
 * size. A file missing here only starts later.
 */
const SLOW_FIRST = [
  'pglite:tests/crash-restart.pglite.test.ts',
  'pglite:tests/sandbox-cli.pglite.test.ts',
  'pglite:tests/webhooks-cli.pglite.test.ts',
  'pglite:tests/keys-cli.both.test.ts',
  'postgres:tests/keys-cli.both.test.ts',
  'postgres:tests/worker-crash.pg.test.ts',
  'postgres:tests/scale-out.pg.test.ts',
  'postgres:tests/webhooks-crash.pg.test.ts',
  'pglite:tests/watcher.both.test.ts',
  'postgres:tests/server-config.both.test.ts',
  'postgres:tests/live-resilience.pg.test.ts',
  'postgres:tests/watcher.both.test.ts',
  'pglite:tests/live-resilience.pg.test.ts',
];

const key = (spec: TestSpecification) =>
  `${spec.project.name}:${spec.moduleId.slice(spec.project.config.root.length + 1)}`;
const rank = (spec: TestSpecification) => {
  const at = SLOW_FIRST.indexOf(key(spec));
  return at === -1 ? SLOW_FIRST.length : at;
};

export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
