/**
 * The CLIs' argument mistakes, read in-process (docs/decisions/128): each is a UsageError whose
 * message (what was wrong, then the usage) the CLI prints before exiting 2. That the process does
 * so, and answers --help, is shown once per CLI by a spawned run (tests/sandbox-cli.pglite.test.ts,
 * tests/webhooks-cli.pglite.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from './command-line';
import { SANDBOX_USAGE, sandboxRequest } from './sandbox-request';
import { WEBHOOKS_USAGE, webhooksRequest } from './webhooks-request';

const ORDER = '0b7e6a43-5d21-4c0e-9a55-3f6f3c1f2d10';

/** The message of the UsageError `read` throws. */
function mistake(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('no UsageError');
}

describe('npm run sandbox: its arguments', () => {
  it('reads each command, with its options', () => {
    expect(sandboxRequest(['pay', ORDER, '0.25', '--json'])).toEqual({
      command: { command: 'sandbox.pay', target: ORDER, amount: '0.25', currency: undefined, tag: undefined },
      json: true,
    });
    expect(sandboxRequest(['mine', 'litecoin'])).toEqual({
      command: { command: 'sandbox.mine', network: 'litecoin', count: 1 },
      json: false,
    });
    expect(sandboxRequest(['mine', 'dogecoin', '2', '--at', '2031-01-01T00:00:00+01:00']).command).toEqual({
      command: 'sandbox.mine',
      network: 'dogecoin',
      count: 2,
      at: '2030-12-31T23:00:00.000Z',
    });
    expect(sandboxRequest(['reset-clock', 'dogecoin']).command).toEqual({
      command: 'sandbox.reset-clock',
      network: 'dogecoin',
    });
    expect(sandboxRequest(['broadcast-raw', '--network', 'litecoin', ' 02AB\n']).command).toEqual({
      command: 'sandbox.broadcast-raw',
      network: 'litecoin',
      transaction: '02ab',
    });
  });

  it('refuses a count, a time, an option or a shape it does not take, with what was wrong and the usage', () => {
    expect(mistake(() => sandboxRequest(['mine', 'litecoin', 'many']))).toBe(
      `COUNT must be an integer from 1 to 1000\n${SANDBOX_USAGE}`,
    );
    expect(mistake(() => sandboxRequest(['mine', 'litecoin', '1001']))).toMatch(/^COUNT must be an integer/);
    expect(mistake(() => sandboxRequest(['mine', 'litecoin', '--at', 'tomorrow']))).toBe(
      `--at must be an ISO 8601 time such as 2030-01-01T00:00:00Z\n${SANDBOX_USAGE}`,
    );
    expect(mistake(() => sandboxRequest(['pay', '--bogus']))).toMatch(/^Unknown option '--bogus'[\s\S]*\nusage:/);
    for (const args of [['pay', ORDER], ['reset-clock'], ['broadcast-raw', '02ab'], ['frobnicate'], []])
      expect(
        mistake(() => sandboxRequest(args)),
        args.join(' '),
      ).toBe(SANDBOX_USAGE);
  });
});

describe('npm run webhooks: its arguments', () => {
  it('reads list and resend', () => {
    expect(webhooksRequest(['list', ORDER])).toEqual({
      command: { command: 'webhooks.list', orderId: ORDER },
      json: false,
    });
    expect(webhooksRequest(['resend', ORDER, '--json'])).toEqual({
      command: { command: 'webhooks.resend', eventId: ORDER },
      json: true,
    });
  });

  it('refuses an id that is not a UUID, a missing one, and an unknown action, with the usage', () => {
    expect(mistake(() => webhooksRequest(['resend', 'abc']))).toBe(`abc is not an id (a UUID)\n${WEBHOOKS_USAGE}`);
    for (const args of [['list'], ['frobnicate', ORDER], ['list', ORDER, 'extra']])
      expect(
        mistake(() => webhooksRequest(args)),
        args.join(' '),
      ).toBe(WEBHOOKS_USAGE);
  });
});
