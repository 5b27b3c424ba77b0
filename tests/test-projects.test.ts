import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filesStartingAGateway } from './support/test-projects';

const SUFFIXES = ['.pglite.test.ts', '.pg.test.ts', '.both.test.ts'];
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

describe('which database test files keep a process of their own (decision 078)', () => {
  let dir: string | undefined;
  afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  /** A tree of `files` (path: text), with the real gateway helpers' file. */
  function tree(files: Record<string, string>): string {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-test-projects-'));
    const all = { 'tests/support/gateway.ts': 'export function withTestGateway() { startTestGateway(); }', ...files };
    for (const [file, text] of Object.entries(all)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
  }

  it("decides by the file's text: a call of either gateway helper, on any database, in any folder", () => {
    const root = tree({
      'tests/a.pg.test.ts': 'withTestGateway((started) => {});',
      'lib/x/b.both.test.ts': 'const gateway = await startTestGateway();',
      'tests/c.pglite.test.ts': "import { call } from './support/gateway';\nopenTestDatabase();",
      'tests/d.test.ts': 'withTestGateway(() => {});',
      'node_modules/e/f.pg.test.ts': 'withTestGateway(() => {});',
    });
    expect(filesStartingAGateway(root, SUFFIXES).sort()).toEqual(['lib/x/b.both.test.ts', 'tests/a.pg.test.ts']);
  });

  it('refuses a support helper other than support/gateway.ts that starts a gateway: its callers would not say so', () => {
    const root = tree({ 'tests/support/shop.ts': 'export const withShop = () => withTestGateway(() => {});' });
    expect(() => filesStartingAGateway(root, SUFFIXES)).toThrow(/tests\/support\/shop\.ts/);
  });

  it('keeps the gateway files of this tree apart, and nothing else', () => {
    const files = filesStartingAGateway(ROOT, SUFFIXES);
    expect(files).toContain('tests/api-fuzz.pg.test.ts');
    expect(files).toContain('tests/statistics.both.test.ts');
    expect(files).not.toContain('tests/watcher.both.test.ts');
    expect(files).not.toContain('tests/live-utxo.pg.test.ts');
  });
});
