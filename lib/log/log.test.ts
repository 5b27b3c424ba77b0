import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '../config';
import { forgetProcessSlot } from '../process';
import { log } from './index';

const saved = process.env.LOG_LEVEL;

/** Configures LOG_LEVEL as a process starting now reads it: the configuration is parsed first. */
function configure(level: string): void {
  process.env.LOG_LEVEL = level;
  forgetProcessSlot('config');
  config();
}

/** The JSON lines written to stdout and stderr while `work` runs. */
function written(work: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const keep = (chunk: string | Uint8Array) => lines.push(String(chunk)) > 0;
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  try {
    work();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

afterEach(() => {
  if (saved === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = saved;
  forgetProcessSlot('config');
  forgetProcessSlot('logLevel');
});

describe('log', () => {
  it('writes the levels LOG_LEVEL lets through, with secret fields redacted', () => {
    configure('warn');
    const lines = written(() => {
      log.info('not shown');
      log.warn('shown', { apiToken: 'x', network: 'bitcoin' });
      log.error('shown too');
    });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'shown'],
      ['error', 'shown too'],
    ]);
    expect(lines[0]).toMatchObject({ apiToken: '[redacted]', network: 'bitcoin' });
  });

  it('takes its level from the configuration, parsed once per process like every variable', () => {
    configure('silent');
    process.env.LOG_LEVEL = 'debug';
    expect(config().logLevel).toBe('silent');
    expect(written(() => log.error('after start-up'))).toEqual([]);
  });

  it('holds the level for every copy of itself in the process, as a second bundle loads one', async () => {
    vi.resetModules();
    const other = await import('./index');
    expect(other.log).not.toBe(log);
    configure('silent');
    expect(written(() => other.log.error('from another bundle'))).toEqual([]);
  });
});
