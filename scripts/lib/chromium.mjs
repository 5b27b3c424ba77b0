// Debian's Chromium for the browser tests (installed from Debian's `chromium` and
// `chromium-headless-shell` packages when missing). Playwright is pointed at these executables and
// never downloads a browser of its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Debian's launcher script. It sources /etc/chromium.d (shared-memory and default flags) and then
 * execs /usr/lib/chromium/chromium; Playwright drives it through the launcher without trouble.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Debian's build of Chromium's headless shell, from the same source package and version as
 * `chromium` (docs/decisions/123): the browser tests run in it, as it draws a page for half the
 * CPU of the full browser's headless mode (e2e/pay-page.spec.ts: 90 -> 51 CPU-seconds). It does not
 * choose a CJK face by the page's language, so the tests that check the fonts a page is drawn with
 * (tagged `@full-chromium`) run in the full browser.
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/** Each executable the browser tests launch, and the Debian package that provides it. */
const PACKAGES = [
  { path: CHROMIUM_PATH, name: 'chromium' },
  { path: HEADLESS_SHELL_PATH, name: 'chromium-headless-shell' },
];

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

/** The browser tests' executables that are missing. */
export function missingChromium() {
  return PACKAGES.filter((p) => !fs.existsSync(p.path)).map((p) => p.path);
}

/** Installs Debian's `chromium` and `chromium-headless-shell` when missing (as root, or tells how). */
export function ensureChromiumInstalled() {
  const missing = PACKAGES.filter((p) => !fs.existsSync(p.path)).map((p) => p.name);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `Chromium is not installed: run \`sudo apt-get install ${missing.join(' ')}\` (or npm test as root).`,
    );
  console.log(`Installing ${missing.join(' and ')} from Debian packages...`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const absent = missingChromium();
  if (absent.length > 0) throw new Error(`Chromium installation did not provide ${absent.join(', ')}`);
}
