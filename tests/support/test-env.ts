/**
 * Vitest set-up of the database projects (vitest.config.ts `setupFiles`): the environment every
 * test process of the storage and API suite shares, set once here instead of at the top of each
 * file. A variable the run already has (e.g. `TEST_LOG_LEVEL=debug npm test`) is kept.
 *
 * Processes a test starts (servers, CLIs, workers) get `childEnv()`, without what this file
 * added: a CLI test checks what an operator's shell gives, such as a first start that makes its
 * own APP_SECRET.
 */
export const TEST_ENV: Readonly<Record<string, string>> = {
  APP_SECRET: 'test-app-secret-that-is-at-least-32-characters',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
};

// The names this file set, in the environment itself: this module may be evaluated again (as a
// set-up file and as an import), and must not take its own values for the run's.
const ADDED = 'TEST_ENV_ADDED';
if (process.env[ADDED] === undefined) {
  const added = Object.keys(TEST_ENV).filter((name) => process.env[name] === undefined);
  for (const name of added) process.env[name] = TEST_ENV[name];
  process.env[ADDED] = added.join(',');
}

/** The environment for a process a test starts: the run's, less what this file added, plus `extra`. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of (process.env[ADDED] ?? '').split(',')) delete env[name];
  delete env[ADDED];
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}
