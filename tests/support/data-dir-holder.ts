/**
 * A process that takes data directories the way the gateway does (lib/db/lock.ts), for the lock's
 * tests: `node --conditions=react-server --import tsx tests/support/data-dir-holder.ts <then> [dataDir]`.
 * It prints `ready` once loaded.
 *
 * - `hold <dataDir>`, `crash <dataDir>`, `exit <dataDir>`: takes the directory and prints `held`
 *   (or `busy <message>` and exits), then keeps it until stdin closes and exits normally (`hold`),
 *   SIGKILLs itself (`crash`) or exits normally at once (`exit`).
 * - `race`: for each line `<moment> <dataDir>` on stdin, tries to take that directory at that
 *   moment (epoch milliseconds; it spins until then, so that racers on different cores really try
 *   together) and prints `held <dataDir>` or `busy <dataDir> <message>`. It keeps what it took until
 *   stdin closes.
 */
import readline from 'node:readline';
import { acquireDataDir } from '../../lib/db/lock';

const [then, dataDir] = process.argv.slice(2) as ['hold' | 'crash' | 'exit' | 'race', string];
const lines = readline.createInterface({ input: process.stdin });
lines.once('close', () => process.exit(0));

/** `held` or `busy <message>`. */
function take(dir: string): string {
  try {
    acquireDataDir(dir);
    return 'held';
  } catch (error) {
    return `busy ${(error as Error).message}`;
  }
}

process.stdout.write('ready\n');
if (then === 'race') {
  lines.on('line', (line) => {
    const [moment, dir] = line.split(' ') as [string, string];
    while (Date.now() < Number(moment)); // a start line for the racers, not a wait for a condition
    const outcome = take(dir).split(' ');
    process.stdout.write(`${[outcome[0], dir, ...outcome.slice(1)].join(' ')}\n`);
  });
} else {
  const outcome = take(dataDir);
  process.stdout.write(`${outcome}\n`);
  if (outcome !== 'held') process.exit(0);
  if (then === 'crash') process.kill(process.pid, 'SIGKILL');
  if (then === 'exit') process.exit(0);
}
