/**
 * Process-wide state: every copy of a module in one process (Next.js bundles server code more
 * than once; scripts/lib/http-server.mjs loads outside the bundle) meets the same values.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { gatewayStarted } from '../../scripts/lib/http-server.mjs';
import { PROCESS_SLOTS, peekProcessSlot, processSlotKey, type ProcessSlotName } from './index';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** A fresh copy of a module, as a second bundle would load it. */
async function freshCopy<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

describe('process slots', () => {
  it('gives two copies of the module the same value, created once', async () => {
    const first = await freshCopy(() => import('./index'));
    const second = await freshCopy(() => import('./index'));
    expect(second).not.toBe(first);
    const create = vi.fn(() => new Map<string, number>());
    first.forgetProcessSlot('addressesDerived'); // as an earlier test file in this process may have left it
    const held = first.processSlot('addressesDerived', create);
    expect(second.processSlot('addressesDerived', create)).toBe(held);
    expect(create).toHaveBeenCalledTimes(1);
    second.forgetProcessSlot('addressesDerived');
    expect(first.peekProcessSlot('addressesDerived')).toBeUndefined();
  });

  it("shares an owner module's state between its copies (a key's rate limit budget)", async () => {
    const first = await freshCopy(() => import('../api/rate-limit'));
    const second = await freshCopy(() => import('../api/rate-limit'));
    expect(second).not.toBe(first);
    expect(first.keyRateLimitWait('key-of-both', 1, { now: 0 })).toBe(0);
    expect(second.keyRateLimitWait('key-of-both', 1, { now: 0 })).toBeGreaterThan(0);
  });

  it('names each slot once, each with its own key', () => {
    const names = Object.keys(PROCESS_SLOTS) as ProcessSlotName[];
    const keys = names.map(processSlotKey);
    expect(new Set(keys).size).toBe(names.length);
    expect(keys.map((k) => k.description)).toEqual(names.map((n) => `gateway.${n}`));
  });

  it('meets the HTTP server, which spells out the key of the API front', async () => {
    const started = gatewayStarted(); // the server waits in its slot until start-up has finished
    const front = peekProcessSlot<{ waiting: ((started: { publicBaseUrl: string }) => void)[] }>('api.front');
    expect(front?.waiting).toHaveLength(1);
    front!.waiting[0]!({ publicBaseUrl: 'http://127.0.0.1:1' });
    await expect(started).resolves.toEqual({ publicBaseUrl: 'http://127.0.0.1:1' });
  });

  it('is the only place that makes process-wide keys', () => {
    const allowed = new Set(['lib/process/index.ts', 'scripts/lib/http-server.mjs', 'lib/process/process.test.ts']);
    const sources = ['app', 'lib', 'components', 'scripts', 'tests', 'instrumentation.ts', 'proxy.ts'].flatMap(
      (entry) =>
        fs.statSync(path.join(ROOT, entry)).isDirectory()
          ? fs
              .readdirSync(path.join(ROOT, entry), { recursive: true, encoding: 'utf8' })
              .map((file) => path.join(entry, file))
          : [entry],
    );
    const offenders = sources.filter(
      (file) =>
        /\.(ts|tsx|mjs|js)$/.test(file) &&
        !allowed.has(file) &&
        fs.readFileSync(path.join(ROOT, file), 'utf8').includes('Symbol.for('),
    );
    expect(offenders).toEqual([]);
  });
});
