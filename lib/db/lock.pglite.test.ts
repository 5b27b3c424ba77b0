/**
 * The data directory's single-owner lock against real processes: a dead owner never blocks a
 * start, whatever its pid belongs to by then and whether or not it has been reaped; a live owner
 * always does, whatever became of owner.json; of several processes starting at once exactly one
 * owns the directory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDir, DataDirBusyError, releaseDataDir } from './lock';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const HOLDER = ['--conditions=react-server', '--import', 'tsx', 'tests/support/data-dir-holder.ts'];

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) {
    releaseDataDir(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-lock-'));
  dirs.push(dir);
  return dir;
}

interface Holder {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first match of `pattern` in the output; rejects if the output ends first. */
  until: (pattern: RegExp) => Promise<RegExpMatchArray>;
}

function watch(child: ChildProcess): Holder {
  children.push(child);
  let output = '';
  const waiting = new Set<() => void>();
  const onData = (data: Buffer) => {
    output += data;
    for (const check of waiting) check();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const until = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = output.match(pattern);
        if (match) {
          waiting.delete(check);
          child.off('close', ended);
          resolve(match);
        }
      };
      const ended = () => {
        waiting.delete(check);
        check();
        reject(new Error(`the process ended before printing ${pattern}:\n${output}`));
      };
      waiting.add(check);
      child.once('close', ended);
      check();
    });
  return { child, output: () => output, until };
}

/** tests/support/data-dir-holder.ts: takes `dataDir` like the gateway does, then does `then` (or races for directories). */
function holder(then: 'hold' | 'crash' | 'exit' | 'race', dataDir?: string): Holder {
  return watch(spawn(process.execPath, [...HOLDER, then, ...(dataDir ? [dataDir] : [])], { cwd: ROOT }));
}

/** One-letter state of process `pid` from /proc (Z: dead, not yet reaped), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
  } catch {
    return undefined;
  }
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 1500) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function acquireError(dataDir: string): unknown {
  try {
    acquireDataDir(dataDir);
    return undefined;
  } catch (error) {
    return error;
  }
}

// Each holder is a Node process started with tsx: about half a second on a quiet machine, ten
// times that on a loaded two-core one, where six of them racing ten rounds need a minute or two.
describe('the data directory lock', { timeout: 180_000 }, () => {
  it('is not blocked by an owner.json naming a live process that does not hold the lock (pid reuse)', () => {
    const dataDir = tempDataDir();
    // The pid of a crashed owner, now another live process's: this test's parent.
    fs.writeFileSync(
      path.join(dataDir, 'owner.json'),
      JSON.stringify({ pid: process.ppid, controlUrl: 'http://127.0.0.1:1/internal/cli' }),
    );
    expect(acquireError(dataDir)).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'owner.json'), 'utf8'))).toEqual({ pid: process.pid });
  });

  it('is not blocked by an owner killed with SIGKILL and not yet reaped (a zombie)', async () => {
    const dataDir = tempDataDir();
    // sh starts the owner, then becomes a sleep that never waits for it: once dead it stays a zombie.
    const parent = watch(
      spawn(
        'sh',
        ['-c', `"$0" "$@" & echo "owner $!"; exec sleep 600`, process.execPath, ...HOLDER, 'crash', dataDir],
        { cwd: ROOT },
      ),
    );
    const pid = Number((await parent.until(/^owner (\d+)$/m))[1]);
    await parent.until(/^held$/m);
    await until(`process ${pid} to be a zombie`, () => processState(pid) === 'Z');
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'owner.json'), 'utf8')).pid).toBe(pid);
    // kill(pid, 0) still succeeds on a zombie: the pid looks alive; the lock knows better.
    expect(() => process.kill(pid, 0)).not.toThrow();
    // The main thread shows Z while the process's other threads may still be exiting, holding its
    // files (and the lock) a moment longer: wait for the lock, which never comes free on a pid lock.
    await until('the lock to come free', () => acquireError(dataDir) === undefined);
    expect(processState(pid)).toBe('Z');
  });

  it('is refused while a live process holds it, even once owner.json is deleted', async () => {
    const dataDir = tempDataDir();
    const owner = holder('hold', dataDir);
    await owner.until(/^held$/m);
    const busy = acquireError(dataDir);
    expect(busy).toBeInstanceOf(DataDirBusyError);
    expect((busy as Error).message).toBe(`The data directory ${dataDir} is in use by process ${owner.child.pid}.`);
    // An operator "unblocking" the start by hand cannot make a second owner.
    fs.rmSync(path.join(dataDir, 'owner.json'));
    expect((acquireError(dataDir) as Error).message).toBe(
      `The data directory ${dataDir} is in use by another process.`,
    );

    // The owner ends normally (its stdin closes): the directory is free again.
    const exited = new Promise((r) => owner.child.once('exit', r));
    owner.child.stdin!.end();
    await exited;
    expect(acquireError(dataDir)).toBeUndefined();
  });

  it('is given up, owner.json and all, by an owner that exits normally', async () => {
    const dataDir = tempDataDir();
    const owner = holder('exit', dataDir);
    await owner.until(/^held$/m);
    await new Promise((r) => (owner.child.exitCode === null ? owner.child.once('exit', r) : r(undefined)));
    expect(owner.child.exitCode).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'owner.json'))).toBe(false);
    expect(acquireError(dataDir)).toBeUndefined();
  });

  /** Runs `check` with PATH holding only the programs named (links to this machine's own). */
  function withOnly(programs: string[], check: () => void): void {
    const bin = tempDataDir();
    for (const program of programs) {
      const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
      fs.symlinkSync(found, path.join(bin, program));
    }
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      check();
    } finally {
      process.env.PATH = saved;
    }
  }

  it('takes the lock with perl where there is no flock program (macOS ships perl, not flock)', () => {
    const dataDir = tempDataDir();
    withOnly(['perl'], () => expect(acquireError(dataDir)).toBeUndefined());
    // A real flock(2) lock: the flock program, from outside, cannot take it.
    expect(spawnSync('flock', ['-x', '-n', dataDir, 'true']).status).toBe(1);
    releaseDataDir(dataDir);
    expect(spawnSync('flock', ['-x', '-n', dataDir, 'true']).status).toBe(0);
  });

  it('does not open without flock or perl, and says what to install', () => {
    const dataDir = tempDataDir();
    withOnly([], () =>
      expect((acquireError(dataDir) as Error).message).toBe(
        `The embedded database needs the flock program (util-linux or BusyBox) or perl to lock ${dataDir}, or set DATABASE_URL.`,
      ),
    );
    expect(fs.existsSync(path.join(dataDir, 'owner.json'))).toBe(false);
    expect(acquireError(dataDir)).toBeUndefined();
  });

  it('goes to exactly one of several processes starting at the same moment', async () => {
    const racers = Array.from({ length: 6 }, () => holder('race'));
    await Promise.all(racers.map((r) => r.until(/^ready$/m)));
    // Several rounds, each on a fresh directory: whether two processes really try within the same
    // microseconds depends on the scheduler, and a single round could miss a double owner.
    for (let round = 0; round < 10; round++) {
      const dataDir = tempDataDir();
      // All of them try at the same moment, a little ahead (each spins until then).
      const moment = Date.now() + 100;
      for (const r of racers) r.child.stdin!.write(`${moment} ${dataDir}\n`);
      const outcome = new RegExp(`^(held|busy) ${dataDir}( .*)?$`, 'm');
      const outcomes = await Promise.all(
        racers.map(async (r) => (await r.until(outcome))[0].replace(` ${dataDir}`, '')),
      );
      expect(
        outcomes.filter((o) => o === 'held'),
        `round ${round}`,
      ).toHaveLength(1);
      for (const o of outcomes.filter((o) => o !== 'held'))
        expect(o).toMatch(/^busy The data directory .* is in use by (process \d+|another process)\.$/);
      // And this process is refused too while the winner lives.
      expect(acquireError(dataDir)).toBeInstanceOf(DataDirBusyError);
    }
  });
});
