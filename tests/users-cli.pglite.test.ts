/**
 * npm run users: create with --password-stdin (the password never on the command line), without
 * a password (a one-time link), list, disable; offline and through a running server's control
 * endpoint. A user made here signs in with that password.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/postgres.mjs';
import { CLI_TEST_TIMEOUT, newDataDir, runCli, runCliWithInput, startServer, stopServer } from './support/cli';
import { childEnv } from './support/test-env';

let env: NodeJS.ProcessEnv;
let dataDir: string;

beforeAll(() => {
  dataDir = newDataDir('gw-users-cli-');
  env = {
    ...childEnv(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DEMO_STORE: 'false',
    ADDRESS_POOL_SIZE: '16',
    DATABASE_URL: '',
  };
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** `npm run users -- ...args` with `stdin` piped in (not a terminal). */
const users = (stdin: string, ...args: string[]) => runCliWithInput(env, stdin, 'users', ...args);

describe('npm run users', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('creates, lists and disables users, offline and through a running server', async () => {
    expect((await runCli(env, 'keys', 'create', '--name', 'CLI shop', '--mode', 'test')).code).toBe(0);
    const created = await users(
      'a-long-cli-passphrase\n',
      'create',
      '--merchant',
      'CLI shop',
      '--email',
      'Owner@CLI.example',
      '--role',
      'owner',
      '--password-stdin',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const { user } = JSON.parse(created.stdout) as { user: { email: string; role: string; hasPassword: boolean } };
    expect(user).toMatchObject({ email: 'owner@cli.example', role: 'owner', hasPassword: true });

    // A weak password is refused with the policy's words; nothing is created.
    const weak = await users(
      'password123\n',
      'create',
      '--merchant',
      'CLI shop',
      '--email',
      'weak@cli.example',
      '--role',
      'viewer',
      '--password-stdin',
    );
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain('at least 12 characters');
    // Refused before anything runs: no password on the command line.
    const argv = await users(
      '',
      'create',
      '--merchant',
      'CLI shop',
      '--email',
      'x@cli.example',
      '--role',
      'viewer',
      '--password',
      'a-long-cli-passphrase',
    );
    expect(argv.code).not.toBe(0);

    const port = await freePort();
    const server = await startServer(env, port);
    try {
      // No password and no terminal: a one-time link on the server's public URL.
      const invited = await users(
        '',
        'create',
        '--merchant',
        'CLI shop',
        '--email',
        'viewer@cli.example',
        '--role',
        'viewer',
      );
      expect(invited.code, invited.stderr).toBe(0);
      expect(invited.stdout).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port}/dashboard/set-up/[A-Za-z0-9_-]{43}`));
      const listed = await users('', 'list');
      expect(listed.stdout).toContain('CLI shop  owner@cli.example  owner');
      expect(listed.stdout).toContain('CLI shop  viewer@cli.example  viewer  (no password yet)');
      expect((await users('', 'disable', '--email', 'viewer@cli.example')).stdout).toContain(
        'Disabled viewer@cli.example',
      );
      expect((await users('', 'list')).stdout).toContain('viewer@cli.example  viewer  (no password yet, disabled)');
      expect((await users('', 'disable', '--email', 'nobody@cli.example')).stderr).toContain(
        'No user nobody@cli.example',
      );
      // The password given on stdin never reaches the server's log.
      expect(server.output()).not.toContain('a-long-cli-passphrase');
    } finally {
      await stopServer(server.child);
    }
    expect((await users('', 'list')).stdout).toContain('owner@cli.example');
  });
});
