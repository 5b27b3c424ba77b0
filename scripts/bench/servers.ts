/**
 * Child processes of the benchmark: every server runs in its own process group (detached) so
 * that it can be stopped with all of its own children (scripts/start.mjs runs `next start`), and
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

/** CPU time (clock ticks) used so far by every process in the group led by `pid`. */
function groupTicks(pid: number): number {
  let ticks = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after "(comm) ": state ppid pgrp ... utime(12th) stime(13th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
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
