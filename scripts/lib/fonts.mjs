// Debian's fonts for the scripts of the payer pages' languages that the base image lacks, for the
// browser tests (installed from Debian's packages when missing). Without them Chromium draws boxes
// with other metrics, and the layout tests (the QR code on a phone's first screen in every
// language) would measure pages no payer sees. Nothing is fetched at run time: the pages name no
// web font, and a payer's device uses its own fonts for these scripts.
import { execFileSync } from 'node:child_process';

/** Debian's packages, and what each brings. */
export const FONT_PACKAGES = {
  'fonts-noto-core': 'Devanagari (Hindi), the Arabic script with Nastaliq (Urdu) and Naskh (Arabic)',
  'fonts-noto-cjk': 'Hangul (Korean), Traditional and Simplified Chinese, Japanese',
};

/** The packages of FONT_PACKAGES that dpkg does not have installed. */
export function missingFontPackages() {
  return Object.keys(FONT_PACKAGES).filter((name) => !isInstalled(name));
}

function isInstalled(name) {
  try {
    const status = execFileSync('dpkg-query', ['-W', '-f=${Status}', name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return status.endsWith('install ok installed');
  } catch {
    return false; // not known to dpkg
  }
}

/** Installs the missing font packages (as root, or tells how). */
export function ensureFontsInstalled() {
  const missing = missingFontPackages();
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `Fonts for the pages' scripts are missing: run \`sudo apt-get install ${missing.join(' ')}\` (or npm test as root).`,
    );
  console.log(`Installing ${missing.join(', ')} from Debian packages...`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const still = missingFontPackages();
  if (still.length > 0) throw new Error(`Installing ${still.join(', ')} left them missing`);
}
