/**
 * A Vitest reporter that writes, per test file, its project and the time it held a worker (set-up,
 * import and tests), and per project the span from its first file's start to its last file's end,
 * to .tmp/vitest-files.json. `npm test` passes it (`--reporter=./tests/support/timing-reporter.ts`)
 * and reads the file for the phase table and the slowest files (scripts/lib/phases.mjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTiming {
  project: string;
  file: string;
  seconds: number;
}
export interface ProjectSpan {
  project: string;
  startedAt: number;
  endedAt: number;
}

export default class TimingReporter implements Reporter {
  private readonly files: FileTiming[] = [];
  private readonly spans = new Map<string, ProjectSpan>();

  private readonly outputFile = path.join(process.cwd(), '.tmp', 'vitest-files.json');

  onTestModuleEnd(module: TestModule): void {
    const project = module.project.name;
    const now = Date.now();
    const d = module.diagnostic();
    const seconds =
      (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000;
    // Vitest reports a file's start once its tests begin; its set-up and import came before.
    const startedAt = now - seconds * 1000;
    this.files.push({ project, file: path.relative(process.cwd(), module.moduleId), seconds });
    const span = this.spans.get(project) ?? { project, startedAt, endedAt: now };
    this.spans.set(project, {
      project,
      startedAt: Math.min(span.startedAt, startedAt),
      endedAt: Math.max(span.endedAt, now),
    });
  }

  onTestRunEnd(): void {
    fs.mkdirSync(path.dirname(this.outputFile), { recursive: true });
    fs.writeFileSync(
      this.outputFile,
      JSON.stringify({ files: this.files, projects: [...this.spans.values()] }, null, 1),
    );
  }
}
