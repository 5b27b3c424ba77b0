/**
 * Which database test files share a gateway server (vitest.config.ts, decision 078), decided by
 * each file's text, so that a new file needs no edit anywhere: a file that starts the in-process
 * test gateway (support/gateway.ts) runs in the `-gateway` project, whose worker keeps one gateway
 * server (one Next.js app, started up again for each file's database and settings); every other
 * one runs where no app is prepared.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A call that starts the in-process gateway: the helpers of support/gateway.ts. */
export const STARTS_A_GATEWAY = /\b(?:withTestGateway|startTestGateway)\(/;

/** The file that defines those helpers: the one support file allowed to call them. */
const GATEWAY_HELPERS = 'tests/support/gateway.ts';

/** Folders never holding a test of ours. */
const SKIPPED = new Set(['node_modules', '.next', '.git', '.tmp', 'coverage', 'reports']);

/** Every file under `dir` (relative to `root`, with '/') whose name ends with one of `suffixes`. */
export function filesEndingWith(root: string, suffixes: readonly string[], dir = ''): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) && !entry.name.startsWith('.'))
        found.push(...filesEndingWith(root, suffixes, relative));
    } else if (suffixes.some((suffix) => entry.name.endsWith(suffix))) found.push(relative);
  }
  return found;
}

/**
 * The database test files under `root` that start the in-process gateway, as paths relative to
 * it. Throws when a support file other than support/gateway.ts starts one: a file calling that
 * helper would not say so in its own text, and would share a process it cannot run in.
 */
export function filesStartingAGateway(root: string, databaseSuffixes: readonly string[]): string[] {
  const helpers = filesEndingWith(root, ['.ts'], 'tests/support').filter(
    (file) => file !== GATEWAY_HELPERS && STARTS_A_GATEWAY.test(fs.readFileSync(path.join(root, file), 'utf8')),
  );
  if (helpers.length > 0)
    throw new Error(
      `${helpers.join(', ')} start(s) the in-process gateway: teach tests/support/test-projects.ts its helper's name, ` +
        'so that the files calling it run where the gateway server is kept (decision 078).',
    );
  return filesEndingWith(root, databaseSuffixes).filter((file) =>
    STARTS_A_GATEWAY.test(fs.readFileSync(path.join(root, file), 'utf8')),
  );
}
