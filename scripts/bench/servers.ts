/**
 * Child processes of the benchmark: every server runs in its own process group (detached) so
 * that it can be stopped with all of its own children (scripts/start.mjs runs scripts/server.mjs), and
 * everything started here is stopped when the benchmark exits, however it exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const cleanups = new Set<() => void>();

/** Registers a synchronous cleanup run at exit (also on error and signals); answers its remover. */
export function atExit(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function runCleanups(): void {
  for (const cleanup of [...cleanups].reverse()) {
    try {
      cleanup();
    } catch {
      // Best effort: the others must still run.
    }
  }
  cleanups.clear();
}

process.on('exit', runCleanups);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers`);
    runCleanups();
    process.exit(130);
  });
}

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  atExit(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface Server {
  name: string;
  port: number;
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export function logTail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Starts `node args...` (cwd `root`), its output to a log file, and waits until `ready()`. */
export async function startServer(
  name: string,
  root: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  ready: () => Promise<boolean>,
  timeoutMs = 300_000,
): Promise<Server> {
  const logFile = path.join(tempDir('gw-bench-log-'), `${name.replace(/\W+/g, '-')}.log`);
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', log, log], detached: true });
  fs.closeSync(log);
  const forget = atExit(() => killGroup(child, 'SIGKILL'));
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = async () => {
    if (!exited) {
      killGroup(child, 'SIGTERM');
      const deadline = Date.now() + 5000;
      while (!exited && Date.now() < deadline) await sleep(50);
    }
    // The group may still hold a grandchild even when the leader is gone.
    killGroup(child, 'SIGKILL');
    forget();
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`${name} exited during start-up:\n${logTail(logFile)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not start within ${timeoutMs / 1000} s:\n${logTail(logFile)}`);
    }
    if (await ready().catch(() => false)) return { name, port, child, logFile, stop };
    await sleep(200);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** True when anything answers HTTP on 127.0.0.1:port (any status). */
export function answers(port: number, urlPath = '/'): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, timeout: 2000 }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

/** The fields after "(comm) " of a /proc stat line, and the command name. */
function procStat(pid: string): { comm: string; fields: string[] } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      fields: stat.slice(stat.lastIndexOf(')') + 2).split(' '),
    };
  } catch {
    return undefined; // The process ended meanwhile.
  }
}

/** CPU time (clock ticks) used so far by the processes `select` picks (fields: state ppid pgrp ... utime(12th) stime(13th)). */
function ticksOf(select: (comm: string, fields: string[]) => boolean): number {
  let ticks = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat && select(stat.comm, stat.fields)) ticks += Number(stat.fields[11]) + Number(stat.fields[12]);
  }
  return ticks;
}

/** CPU time (clock ticks) used so far by every process in the group led by `pid`. */
const groupTicks = (pid: number) => ticksOf((_comm, fields) => Number(fields[2]) === pid);

/** CPU milliseconds used so far by the server (all its threads and children), by PostgreSQL, and by the whole machine. */
export interface CpuSnapshot {
  server: number;
  postgres: number;
  machine: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

export function cpuSnapshot(server: Server): CpuSnapshot {
  // /proc/stat "cpu" line: user nice system idle iowait irq softirq steal guest guest_nice; busy =
  // user to softirq without idle and iowait (steal is the hypervisor's, guest is counted in user).
  const [user, nice, system, , , irq, softirq] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user! + nice! + system! + irq! + softirq!;
  return {
    server: server.child.pid ? groupTicks(server.child.pid) * TICK_MS : 0,
    postgres: ticksOf((comm) => comm === 'postgres') * TICK_MS,
    machine: busy * TICK_MS,
  };
}

/**
 * Waits until the server has used under 5% of a core for a whole second, at most `maxMs`: the
 * gateway derives deposit addresses in the background after start-up and after a run has
 * drained its pools, and that work must not be billed to the next run.
 */
export async function waitQuiet(server: Server, maxMs = 30_000): Promise<number> {
  const pid = server.child.pid;
  if (!pid) return 0;
  const started = Date.now();
  let last = groupTicks(pid);
  while (Date.now() - started < maxMs) {
    await sleep(1000);
    const now = groupTicks(pid);
    if (now - last < 5) break; // ticks are 1/100 s
    last = now;
  }
  return Date.now() - started;
}
