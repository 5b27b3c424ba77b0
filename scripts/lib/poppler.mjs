// Debian's poppler-utils (pdftotext, pdftoppm, pdfimages) for the receipts' PDF tests
// (tests/receipts.pglite.test.ts, docs/decisions/075): the PDFs are read back as a payer's viewer
// reads them. Installed from Debian's packages when missing, as litecoind is.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const BINARY = '/usr/bin/pdftotext';

export function ensurePopplerInstalled() {
  if (fs.existsSync(BINARY)) return;
  if (process.getuid?.() !== 0)
    throw new Error('pdftotext is not installed: run `sudo apt-get install poppler-utils` (or npm test as root).');
  console.log('Installing poppler-utils from Debian packages...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'poppler-utils'], {
    stdio: 'inherit',
    env,
  });
  if (!fs.existsSync(BINARY)) throw new Error('The poppler-utils package did not provide /usr/bin/pdftotext');
}
