/**
 * A benchmark's "before" measured in the same run as its "after": the code of another commit is
 * checked out in a temporary git worktree (node_modules hard-linked from this tree, as a helper's
 * worktree gets it), this tree's benchmark script is copied over that commit's own (the same
 * measurement of other code: the old script may lack the options or the machine-readable output),
 * and it runs there with the given arguments. Its output is passed through, each line marked with
 * the commit; its last line, `BENCH_JSON {...}`, is its figures. The worktree is removed when the
 * run ends, and at exit if the benchmark is stopped.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { atExit } from './servers';

/** This module, copied beside the script: the script imports it. */
const HARNESS = 'scripts/bench/baseline.ts';

/** The line prefix of a benchmark's figures for the run that called it. */
export const BENCH_JSON = 'BENCH_JSON ';

function git(cwd: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** The commit `ref` names, in short form (for labels). */
export function shortCommit(ref: string): string {
  return git(process.cwd(), ['rev-parse', '--short', '--verify', `${ref}^{commit}`]);
}

/**
 * Runs `script` (a path relative to the repository) as it is in this tree, against the code of
 * `ref`, with `args`; answers the parsed `BENCH_JSON` line of its output.
 */
export async function runAtCommit<T>(ref: string, script: string, args: readonly string[]): Promise<T> {
  const root = git(process.cwd(), ['rev-parse', '--show-toplevel']);
  const commit = git(root, ['rev-parse', '--verify', `${ref}^{commit}`]);
  const label = commit.slice(0, 7);
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-against-'));
  const tree = path.join(parent, 'tree');
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: root });
    fs.rmSync(parent, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: root });
  };
  const forget = atExit(remove);
  try {
    git(root, ['worktree', 'add', '--detach', '--quiet', tree, commit]);
    const copied = spawnSync('cp', ['-al', path.join(root, 'node_modules'), path.join(tree, 'node_modules')]);
    if (copied.status !== 0) throw new Error(`cp -al node_modules: ${copied.stderr.toString().trim()}`);
    for (const file of [script, HARNESS]) fs.copyFileSync(path.join(root, file), path.join(tree, file));
    console.log(`--- before: ${label} (checked out in ${tree}, measured by this tree's ${script})`);
    const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', script, ...args], {
      cwd: tree,
      env: process.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let figures: string | undefined;
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith(BENCH_JSON)) figures = line.slice(BENCH_JSON.length);
        else console.log(`  [${label}] ${line}`);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0 || figures === undefined) throw new Error(`the benchmark at ${label} failed (exit ${code})`);
    return JSON.parse(figures) as T;
  } finally {
    remove();
    forget();
  }
}
