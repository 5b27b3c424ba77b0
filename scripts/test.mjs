#!/usr/bin/env node
// `npm test`: everything, on a clean machine. Installs PostgreSQL from Debian's packages when
// missing, starts a temporary server, builds the app, runs Vitest (unit tests, and the storage
// and API suite on PGlite and on PostgreSQL), and ends with `tests: N passed, M failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBuild, root } from './lib/build.mjs';
import { startPostgres } from './lib/postgres.mjs';

const outDir = path.join(root, '.tmp');
fs.mkdirSync(outDir, { recursive: true });
const extraArgs = process.argv.slice(2);

ensureBuild();
const postgres = await startPostgres();
let totals = { passed: 0, failed: 0 };
try {
  const vitestJson = path.join(outDir, 'vitest.json');
  fs.rmSync(vitestJson, { force: true });
  const vitest = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`, ...extraArgs],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_PG_URL: postgres.url } },
  );
  totals = countVitest(vitestJson, vitest.status);
} finally {
  postgres.stop();
}

const summary = `tests: ${totals.passed} passed, ${totals.failed} failed`;
fs.writeFileSync(path.join(outDir, 'test-summary.txt'), `${summary}\n`);
console.log(summary);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);

function countVitest(file, status) {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1 }; // the runner itself failed
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  // A file whose set-up failed (it did not load, or a beforeAll threw) reports its tests as
  // skipped, not failed: each of them counts as a failure here, and the file at least once.
  const brokenFiles = report.testResults
    .filter((f) => f.status === 'failed' && !f.assertionResults.some((t) => t.status === 'failed'))
    .reduce((n, f) => n + Math.max(1, f.assertionResults.filter((t) => t.status !== 'passed').length), 0);
  const failed = report.numFailedTests + brokenFiles + (status !== 0 && report.numFailedTests + brokenFiles === 0 ? 1 : 0);
  return { passed: report.numPassedTests, failed };
}
