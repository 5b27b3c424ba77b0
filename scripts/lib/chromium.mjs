// Debian's Chromium for the browser tests (installed from the `chromium` package when missing).
// Playwright is pointed at this executable and never downloads a browser of its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Debian's launcher script. It sources /etc/chromium.d (shared-memory and default flags) and then
 * execs /usr/lib/chromium/chromium; Playwright drives it through the launcher without trouble.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for every launch. `--no-sandbox`: Chromium refuses to start as root with its sandbox (CI
 * runs as root). The others keep the browser from reaching the network on its own (component
 * updates, sync, background requests, QUIC) and from needing a GPU.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Installs Debian's `chromium` when it is missing (as root, or tells how); answers its path. */
export function ensureChromiumInstalled() {
  if (fs.existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.getuid?.() !== 0)
    throw new Error('Chromium is not installed: run `sudo apt-get install chromium` (or npm test as root).');
  console.log('Installing Chromium from Debian packages...');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium installation did not provide ${CHROMIUM_PATH}`);
  return CHROMIUM_PATH;
}
