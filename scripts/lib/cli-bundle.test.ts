import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentBundle, recordBundle } from './cli-bundle.mjs';

let root: string;
let manifest: string;
let bundle: string;
const INPUTS = ['scripts/sandbox.ts', 'lib/money/index.ts'];

/** Writes `file` under root, dated `secondsAgo` in the past. */
function write(file: string, text: string, secondsAgo = 60) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  const at = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(full, at, at);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-cli-bundle-'));
  manifest = path.join(root, '.tmp', 'cli', 'sandbox.json');
  bundle = path.join(root, '.tmp', 'cli', 'sandbox-0123.mjs');
  for (const file of INPUTS) write(file, `// ${file}\n`);
  write('.tmp/cli/sandbox-0123.mjs', '// the bundle\n');
  recordBundle(root, manifest, bundle, INPUTS, Date.now());
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('a CLI bundle is started again only while its sources are unchanged', () => {
  it('is current right after its build', () => {
    expect(currentBundle(root, manifest)).toBe(bundle);
  });

  it('is stale once a source is edited, even to the same length', () => {
    write('lib/money/index.ts', '// lib/money/index.tX\n', 0);
    expect(currentBundle(root, manifest)).toBeUndefined();
  });

  it('is stale once a source is gone, or the bundle is, or the checkout moved', () => {
    fs.rmSync(path.join(root, 'scripts/sandbox.ts'));
    expect(currentBundle(root, manifest)).toBeUndefined();
    write('scripts/sandbox.ts', '// scripts/sandbox.ts\n');
    recordBundle(root, manifest, bundle, INPUTS, Date.now());
    expect(currentBundle(`${root}/`, manifest)).toBeUndefined();
    fs.rmSync(bundle);
    expect(currentBundle(root, manifest)).toBeUndefined();
  });

  it('is not recorded when a source changed while it was built', () => {
    fs.rmSync(manifest);
    const started = Date.now() - 30_000; // the sources were written a minute ago; one now:
    write('scripts/sandbox.ts', '// edited during the build\n', 0);
    recordBundle(root, manifest, bundle, INPUTS, started);
    expect(fs.existsSync(manifest)).toBe(false);
    expect(currentBundle(root, manifest)).toBeUndefined();
  });

  it('treats a manifest it cannot read as none', () => {
    fs.writeFileSync(manifest, '{"root": ');
    expect(currentBundle(root, manifest)).toBeUndefined();
  });
});
