// Where the time of a test run went: `npm test` records each phase's wall time in
// .tmp/test-phases.json, Vitest's timing reporter (tests/support/timing-reporter.ts) the time of
// each file, Playwright its JSON report. `printPhaseTable` turns them into the table that ends
// `npm test` and `.ci/run`, with the ten slowest test files, so that a slow new file shows at once.
//
// `node scripts/lib/phases.mjs [--install=SECONDS]` prints it for the last run (.ci/run adds the
// time of `npm ci`).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const PHASES_FILE = path.join(root, '.tmp', 'test-phases.json');
export const VITEST_TIMINGS_FILE = path.join(root, '.tmp', 'vitest-files.json');
const PLAYWRIGHT_REPORT = path.join(root, '.tmp', 'playwright.json');

/**
 * CPU seconds (user + system) used so far by the processes of the control group .ci/run made for
 * the run (CPU_GROUP, its directory: cgroup v1 cpuacct.usage in nanoseconds, v2 cpu.stat's
 * usage_usec), Chromium and PostgreSQL included; undefined outside one, where no figure would be
 * the run's own.
 */
export function groupCpuSeconds(group = process.env.CPU_GROUP) {
  if (!group) return undefined;
  try {
    const v1 = path.join(group, 'cpuacct.usage');
    if (fs.existsSync(v1)) return Number(fs.readFileSync(v1, 'utf8').trim()) / 1e9;
    const usec = /^usage_usec (\d+)$/m.exec(fs.readFileSync(path.join(group, 'cpu.stat'), 'utf8'))?.[1];
    return usec === undefined ? undefined : Number(usec) / 1e6;
  } catch {
    return undefined;
  }
}

/** Times phases of one run and writes them to PHASES_FILE as they end. */
export function phaseClock() {
  const phases = [];
  const save = () => {
    fs.mkdirSync(path.dirname(PHASES_FILE), { recursive: true });
    fs.writeFileSync(PHASES_FILE, JSON.stringify(phases, null, 1));
  };
  fs.rmSync(PHASES_FILE, { force: true });
  return {
    /** Records a phase that took `seconds`; `note` says e.g. that it ran beside another. */
    record(name, seconds, note = '', cpu = undefined) {
      phases.push({ name, seconds, note, cpu });
      save();
    },
    /** Runs `work` (sync or async) and records its wall time (and CPU time, in CI) under `name`. */
    async time(name, work, note = '') {
      const started = performance.now();
      const cpuStarted = groupCpuSeconds();
      try {
        return await work();
      } finally {
        const cpuEnded = groupCpuSeconds();
        const cpu = cpuStarted === undefined || cpuEnded === undefined ? undefined : cpuEnded - cpuStarted;
        this.record(name, (performance.now() - started) / 1000, note, cpu);
      }
    },
  };
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Playwright's report as { file, seconds } per spec file: the sum of its tests' durations. */
function playwrightFiles() {
  const report = readJson(PLAYWRIGHT_REPORT);
  if (!report) return [];
  const totals = new Map();
  const walk = (suite, file) => {
    const at = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        for (const result of test.results ?? []) totals.set(at, (totals.get(at) ?? 0) + result.duration / 1000);
      }
    }
    for (const child of suite.suites ?? []) walk(child, at);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return [...totals].map(([file, seconds]) => ({ project: 'e2e', file: `e2e/${file}`, seconds }));
}

const fmt = (seconds) => seconds.toFixed(1).padStart(7);

/** The lines of the phase table and of the ten slowest test files. */
export function phaseTable({ install, installCpu } = {}) {
  const phases = readJson(PHASES_FILE) ?? [];
  const vitest = readJson(VITEST_TIMINGS_FILE) ?? { files: [], projects: [] };
  const rows = [];
  if (install !== undefined) rows.push({ name: 'install (npm ci)', seconds: install, note: '', cpu: installCpu });
  for (const phase of phases) {
    rows.push(phase);
    if (phase.name === 'vitest') {
      for (const span of vitest.projects) {
        const fileSeconds = vitest.files
          .filter((f) => f.project === span.project)
          .reduce((sum, f) => sum + f.seconds, 0);
        rows.push({
          name: `  vitest ${span.project}`,
          seconds: (span.endedAt - span.startedAt) / 1000,
          note: `first file to last; ${fileSeconds.toFixed(0)} s in its files`,
        });
      }
    }
  }
  // CPU beside wall: a phase near twice its wall time in CPU has both cores busy, and gains
  // nothing from more parallelism; one well under it waits (sleeps, servers, the network).
  const withCpu = rows.some((row) => row.cpu !== undefined && row.cpu !== null);
  const cpuCell = (row) =>
    withCpu ? `  ${row.cpu === undefined || row.cpu === null ? ''.padStart(7) : fmt(row.cpu)}` : '';
  const lines = [
    '',
    `phase                         wall s${withCpu ? '    CPU s' : ''}`,
    `----------------------------  -------${withCpu ? '  -------' : ''}`,
  ];
  for (const row of rows)
    lines.push(`${row.name.padEnd(28)}  ${fmt(row.seconds)}${cpuCell(row)}${row.note ? `  ${row.note}` : ''}`);
  const slowest = [...vitest.files, ...playwrightFiles()].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  if (slowest.length) {
    lines.push('', 'slowest test files                 s');
    for (const f of slowest) lines.push(`${fmt(f.seconds)}  ${f.project.padEnd(8)}  ${f.file}`);
  }
  return lines;
}

export function printPhaseTable(options) {
  console.log(phaseTable(options).join('\n'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const option = (name) => {
    const given = process.argv.find((a) => a.startsWith(`--${name}=`));
    return given ? Number(given.slice(name.length + 3)) : undefined;
  };
  printPhaseTable({ install: option('install'), installCpu: option('install-cpu') });
}
