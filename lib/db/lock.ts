import 'server-only';
import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite allows one process per data directory. The process that opens the embedded database
 * holds this lock; a second process (a CLI while the server runs) must talk to the owner
 * through its control endpoint instead of opening the directory itself.
 */
export interface DataDirOwner {
  pid: number;
  /** Loopback URL of the owner's control endpoint, when the owner is the server. */
  controlUrl?: string;
}

const LOCK_FILE = 'owner.json';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process that owns `dataDir`, if another one does. */
export function currentOwner(dataDir: string): DataDirOwner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as DataDirOwner;
    if (owner.pid !== process.pid && isAlive(owner.pid)) return owner;
  } catch {
    // No lock or an unreadable one: nobody owns the directory.
  }
  return undefined;
}

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(readonly owner: DataDirOwner, dataDir: string) {
    super(`The data directory ${dataDir} is in use by process ${owner.pid}.`);
  }
}

/** Takes the lock for this process (replacing a stale one); throws when a live process holds it. */
export function acquireDataDir(dataDir: string, info: Omit<DataDirOwner, 'pid'> = {}): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const owner = currentOwner(dataDir);
  if (owner) throw new DataDirBusyError(owner, dataDir);
  const file = path.join(dataDir, LOCK_FILE);
  const temp = `${file}.${process.pid}`;
  fs.writeFileSync(temp, JSON.stringify({ pid: process.pid, ...info }), { mode: 0o600 });
  fs.renameSync(temp, file);
  process.once('exit', () => releaseDataDir(dataDir));
}

export function releaseDataDir(dataDir: string): void {
  const file = path.join(dataDir, LOCK_FILE);
  try {
    const owner = JSON.parse(fs.readFileSync(file, 'utf8')) as DataDirOwner;
    if (owner.pid === process.pid) fs.rmSync(file);
  } catch {
    // Already gone.
  }
}
