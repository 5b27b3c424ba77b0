import 'server-only';
import { spawnSync, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { processSlot } from '../process';

/**
 * PGlite allows one process per data directory but does not enforce it: a second process opens a
 * directory in use and writes to it. So the process that opens the embedded database holds an
 * exclusive flock(2) lock on the data directory for as long as it lives. The kernel drops the lock
 * when the process ends, however it ends (kill -9 included, before the dead process is reaped), so
 * a dead owner never blocks the next start, whatever its pid belongs to by then
 * (docs/decisions/013-a-lock-the-kernel-releases.md).
 *
 * A second process (a CLI while the server runs) talks to the owner through its control endpoint,
 * which the owner describes in `owner.json`. That file is information only: the lock, not the
 * file, says whether an owner is alive.
 */
export interface DataDirOwner {
  /** The owner's process id as it wrote it; absent while the owner has not described itself yet. */
  pid?: number;
  /** Loopback URL of the owner's control endpoint, when the owner is the server. */
  controlUrl?: string;
}

const INFO_FILE = 'owner.json';
const ownerInfo = z.object({ pid: z.number().int().positive().optional(), controlUrl: z.url().optional() });

// The lock descriptors this process holds, by the data directory's real path. In a process slot:
// Next.js may load this module more than once, and a second flock on the directory from a second
// descriptor would conflict with this process's own first one.
function held(): Map<string, number> {
  return processSlot('dataDirLocks', () => {
    const locks = new Map<string, number>();
    process.once('exit', () => {
      for (const dir of locks.keys()) releaseDataDir(dir);
    });
    return locks;
  });
}

/**
 * Node has no flock(): a helper program takes the lock on a descriptor it inherits from this
 * process as its fd 3. A flock lock belongs to the open file description, which this process
 * keeps open after the helper exits, so the lock is this process's until it closes the
 * descriptor or ends. The flock program (util-linux, BusyBox) where there is one; else perl,
 * whose flock is flock(2) and which macOS ships (it has no flock program). Each exits 1, silently,
 * when another process holds the lock.
 */
const PERL_FLOCK = 'open(my $dir, "<&=", 3) or die "fd 3: $!\\n"; exit(flock($dir, LOCK_EX | LOCK_NB) ? 0 : 1)';

/** False when another process holds the lock. */
function tryLock(fd: number, dataDir: string): boolean {
  const stdio: StdioOptions = ['ignore', 'ignore', 'pipe', fd];
  // Literal program names: a computed one makes the bundler trace the whole project.
  const helpers = [
    () => spawnSync('flock', ['-x', '-n', '3'], { stdio }),
    () => spawnSync('perl', ['-MFcntl=:flock', '-e', PERL_FLOCK], { stdio }),
  ];
  for (const [i, run] of helpers.entries()) {
    const result = run();
    if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') continue;
    if (result.status === 0) return true;
    const said = result.stderr?.toString().trim();
    if (result.status === 1 && !said) return false;
    throw new Error(
      `Cannot lock the data directory ${dataDir}: ${i === 0 ? 'flock' : 'perl'} ${said || result.error?.message || `exited with ${result.status ?? result.signal}`}`,
    );
  }
  throw new Error(
    `The embedded database needs the flock program (util-linux or BusyBox) or perl to lock ${dataDir}, or set DATABASE_URL.`,
  );
}

function readOwner(dataDir: string): DataDirOwner {
  try {
    const parsed = ownerInfo.safeParse(JSON.parse(fs.readFileSync(path.join(dataDir, INFO_FILE), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // Not written yet (the owner has just taken the lock) or unreadable: an owner all the same.
  }
  return {};
}

/** "process 123", or "another process" when the owner has not said which. */
export function describeOwner(owner: DataDirOwner): string {
  return owner.pid ? `process ${owner.pid}` : 'another process';
}

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(
    readonly owner: DataDirOwner,
    dataDir: string,
  ) {
    super(`The data directory ${dataDir} is in use by ${describeOwner(owner)}.`);
  }
}

/**
 * Takes `dataDir` for this process and describes this process in `owner.json`, unless another
 * live process holds it: then answers that process as it described itself. Holding it already
 * answers undefined.
 */
export function claimDataDir(dataDir: string, info: Omit<DataDirOwner, 'pid'> = {}): DataDirOwner | undefined {
  fs.mkdirSync(dataDir, { recursive: true });
  const key = fs.realpathSync(dataDir);
  if (held().has(key)) return undefined;
  // The directory itself is locked, not a file in it: deleting a file cannot undo the lock.
  const fd = fs.openSync(key, 'r');
  let locked = false;
  try {
    locked = tryLock(fd, dataDir);
  } finally {
    if (!locked) fs.closeSync(fd);
  }
  if (!locked) return readOwner(dataDir);
  held().set(key, fd);
  const file = path.join(dataDir, INFO_FILE);
  const temp = `${file}.${process.pid}`;
  fs.writeFileSync(temp, JSON.stringify({ pid: process.pid, ...info }), { mode: 0o600 });
  fs.renameSync(temp, file);
  return undefined;
}

/** Takes `dataDir` for this process; throws DataDirBusyError when another live process holds it. */
export function acquireDataDir(dataDir: string, info: Omit<DataDirOwner, 'pid'> = {}): void {
  const owner = claimDataDir(dataDir, info);
  if (owner) throw new DataDirBusyError(owner, dataDir);
}

/** Gives `dataDir` up, if this process holds it (it does so by itself when it exits). */
export function releaseDataDir(dataDir: string): void {
  let key: string;
  try {
    key = fs.realpathSync(dataDir);
  } catch {
    key = path.resolve(dataDir);
  }
  const fd = held().get(key);
  if (fd === undefined) return;
  // While this process holds the lock nobody else writes the file: it is this process's own.
  fs.rmSync(path.join(key, INFO_FILE), { force: true });
  fs.closeSync(fd);
  held().delete(key);
}
