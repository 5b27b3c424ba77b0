#!/usr/bin/env node
// `npm test`: everything, on a clean machine, on the supported Node.js (24 LTS; when the machine's
// is older, the pinned official binary from the npm registry, scripts/lib/node-runtime.mjs).
// Builds the app while the linter (ESLint: the architecture's import arrows among its rules), the
// type check (`npm run typecheck`; the build does not check types, next.config.mjs) and the
// formatting check (Prettier) run beside it, each one test in the summary; installs PostgreSQL from Debian's packages when
// missing, starts a temporary server, runs Vitest (the unit tests, and each storage and API test
// file on the databases its name gives, vitest.config.ts), then the browser tests (Playwright
// driving Debian's Chromium, installed when missing with the fonts of the pages' scripts
// (scripts/lib/fonts.mjs), against the production build), and ends with
// the time each phase took, the ten slowest test files and `tests: N passed, M failed` over every
// runner.
//
// `npm run test:e2e [-- playwright arguments]` (`--e2e`): the build and the browser tests only.
// `npm run test:vitest [-- vitest arguments]` (`--vitest`): the build and Vitest only, with the
// run's PostgreSQL, e.g. `npm run test:vitest -- tests/watcher.both.test.ts`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild, root } from './lib/build.mjs';
import { ensureChromiumInstalled } from './lib/chromium.mjs';
import { ensureFontsInstalled } from './lib/fonts.mjs';
import { ensureLitecoindInstalled } from './lib/litecoind.mjs';
import { ensurePopplerInstalled } from './lib/poppler.mjs';
import { isSupportedNode, supportedNodeBinary } from './lib/node-runtime.mjs';
import { phaseClock, printPhaseTable } from './lib/phases.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { ensurePgliteTemplate, TEMPLATE_ENV } from './lib/pglite-template.mjs';

if (!isSupportedNode()) {
  // The whole run, the build included, on the supported runtime: its `node` first on PATH, so
  // that every process the tests start (servers, CLIs, workers) runs on it too.
  const node = supportedNodeBinary(root);
  const again = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  process.exit(again.status ?? 1);
}

const outDir = path.join(root, '.tmp');
fs.mkdirSync(outDir, { recursive: true });
// Every Node.js process of the run (the build and checks, the runners, and the hundreds of servers
// and CLIs the tests start) keeps the code V8 compiles for its modules here and reuses it at its
// next start: some 10% of a process start's CPU. Node.js checks each entry against its source.
process.env.NODE_COMPILE_CACHE ??= path.join(outDir, 'node-compile-cache');
const mode = ['--e2e', '--vitest'].includes(process.argv[2]) ? process.argv[2] : 'all';
const extraArgs = process.argv.slice(mode === 'all' ? 2 : 3);
// .ci/run reads this file after the run: one left by an earlier run must not stand in for this one.
if (mode === 'all') fs.rmSync(path.join(outDir, 'test-summary.txt'), { force: true });
console.log(`npm test on Node.js ${process.version}`);
const clock = phaseClock();

// They need a core each for a quarter of a minute and nothing from the build: beside it, not before.
const checks =
  mode === 'all'
    ? [
        startCheck('lint', [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings=0', '.']),
        startCheck('typecheck', [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit']),
        startCheck('format', [path.join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '.']),
      ]
    : [];
await clock.time('build', () => ensureBuild(), checks.length ? 'lint and typecheck beside it' : '');
let totals = { passed: 0, failed: 0 };
for (const check of await Promise.all(checks))
  totals = { passed: totals.passed + check.passed, failed: totals.failed + check.failed };
// Once, before the test files that start litecoind run in parallel (one apt-get at a time); and
// poppler-utils for the receipts' PDFs.
ensureLitecoindInstalled();
if (mode !== '--e2e') ensurePopplerInstalled();
if (mode !== '--e2e') {
  const vitestTotals = await clock.time('vitest', async () => {
    // The migrated embedded database the tests' processes start from (tests/support/cli.ts newDataDir).
    process.env[TEMPLATE_ENV] = await ensurePgliteTemplate(root);
    const postgres = await startPostgres();
    try {
      const vitestJson = path.join(outDir, 'vitest.json');
      fs.rmSync(vitestJson, { force: true });
      const vitest = spawnSync(
        process.execPath,
        [
          path.join(root, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${vitestJson}`,
          '--reporter=./tests/support/timing-reporter.ts',
          ...extraArgs,
        ],
        { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_PG_URL: postgres.url } },
      );
      return countVitest(vitestJson, vitest.status);
    } finally {
      postgres.stop();
    }
  });
  totals = { passed: totals.passed + vitestTotals.passed, failed: totals.failed + vitestTotals.failed };
}

if (mode !== '--vitest') {
  const e2e = await clock.time('e2e', () => runPlaywright(mode === '--e2e' ? extraArgs : []));
  console.log(`e2e: ${e2e.passed} passed, ${e2e.failed} failed${e2e.note}`);
  totals = { passed: totals.passed + e2e.passed, failed: totals.failed + e2e.failed };
}

// .ci/run prints the table itself, with the install's time, just before its last line.
if (process.env.PHASE_TABLE !== 'ci') printPhaseTable();
const summary = `tests: ${totals.passed} passed, ${totals.failed} failed`;
if (mode === 'all') fs.writeFileSync(path.join(outDir, 'test-summary.txt'), `${summary}\n`);
console.log(summary);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);

/**
 * Starts a Node script as a check counted as one test; resolves once it ends, after printing its
 * output (kept in a file meanwhile, so that it does not run through the build's) and its verdict.
 * Its wall time goes into the phase table.
 */
function startCheck(name, args) {
  const started = performance.now();
  const log = path.join(outDir, `${name}.log`);
  const out = fs.openSync(log, 'w');
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  return new Promise((resolve) => {
    let ended = false;
    const end = (passed) => {
      if (ended) return;
      ended = true;
      process.stdout.write(fs.readFileSync(log, 'utf8'));
      console.log(`${name}: ${passed ? 'passed' : 'failed'}`);
      clock.record(name, (performance.now() - started) / 1000, 'beside the build');
      resolve({ passed: passed ? 1 : 0, failed: passed ? 0 : 1 });
    };
    child.once('error', (error) => {
      fs.appendFileSync(log, `${error.message}\n`);
      end(false);
    });
    child.once('close', (code) => end(code === 0));
  });
}

function countVitest(file, status) {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1 }; // the runner itself failed
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  // A file whose set-up failed (it did not load, or a beforeAll threw) reports its tests as
  // skipped, not failed: each of them counts as a failure here, and the file at least once.
  const brokenFiles = report.testResults
    .filter((f) => f.status === 'failed' && !f.assertionResults.some((t) => t.status === 'failed'))
    .reduce((n, f) => n + Math.max(1, f.assertionResults.filter((t) => t.status !== 'passed').length), 0);
  const failed =
    report.numFailedTests + brokenFiles + (status !== 0 && report.numFailedTests + brokenFiles === 0 ? 1 : 0);
  return { passed: report.numPassedTests, failed };
}

/** Runs Playwright (playwright.config.ts) and counts its JSON report; a run without one is a failure. */
function runPlaywright(args) {
  try {
    ensureChromiumInstalled();
    ensureFontsInstalled();
  } catch (error) {
    console.error(`e2e: ${error.message}`);
    return { passed: 0, failed: 1, note: ' (no browser or fonts)' };
  }
  const report = path.join(outDir, 'playwright.json');
  fs.rmSync(report, { force: true });
  const started = Date.now();
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', E2E_BUILD_ENSURED: '1' },
  });
  const seconds = ` in ${Math.round((Date.now() - started) / 1000)} s`;
  if (!fs.existsSync(report))
    return {
      passed: 0,
      failed: 1,
      note: ` (Playwright ended with ${run.status ?? run.signal} and no report)${seconds}`,
    };
  const counts = countPlaywright(JSON.parse(fs.readFileSync(report, 'utf8')), run.status);
  return { ...counts, note: `${counts.skipped > 0 ? `, ${counts.skipped} skipped` : ''}${seconds}` };
}

function countPlaywright(report, status) {
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats ?? {};
  // Errors outside any test (global set-up, a spec that does not load, the global timeout) each
  // count as a failure. A test that passed only on a retry (flaky) is a failure too; a skipped one
  // is neither, but a run that Playwright itself calls failed is never counted as clean.
  let failed = unexpected + flaky + (report.errors?.length ?? 0);
  if (status !== 0 && failed === 0) failed = 1;
  return { passed: expected, failed, skipped };
}
