// Preloaded into the gateway under test (`node --import`): the server ends when the test run that
// started it goes away, even when that run is killed and never gets to stop it. The runner holds
// the write end of the server's stdin; the pipe closes when the runner's process ends, however.
// The temporary data directory goes with the server (E2E_REMOVE_ON_EXIT).
// Only in the main thread: a worker thread of the server (address derivation) has no stdin of its
// own, which would read as the runner gone, and its exit is not the server's.
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';

function stop() {
  process.kill(process.pid, 'SIGTERM');
  setTimeout(() => process.exit(1), 5_000).unref();
}

if (isMainThread) {
  const removeOnExit = process.env.E2E_REMOVE_ON_EXIT;
  if (removeOnExit) process.on('exit', () => fs.rmSync(removeOnExit, { recursive: true, force: true }));
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}
