/**
 * npm run users -- create --merchant NAME_OR_ID --email E --role owner|admin|viewer|cashier [--password-stdin]
 * npm run users -- list
 * npm run users -- reset-password --email E [--password-stdin]
 * npm run users -- disable --email E
 *
 * The password never travels on the command line (where `ps` and shell histories show it): it is
 * read from standard input (--password-stdin), or asked for on a terminal with echo off; with
 * neither, the user gets a one-time link (72 hours) to choose it.
 */
import { fail, runCommand, parseCommandLine } from './cli-runtime';

const USAGE = `usage:
  npm run users -- create --merchant NAME_OR_ID --email E --role owner|admin|viewer|cashier [--password-stdin]
  npm run users -- list
  npm run users -- reset-password --email E [--password-stdin]
  npm run users -- disable --email E
Without --password-stdin the password is asked for on a terminal; with no terminal either, a
one-time link to choose it is printed instead.`;

interface User {
  id: string;
  merchantId: string;
  merchantName: string;
  email: string;
  role: string;
  hasPassword: boolean;
  twoFactorEnabled: boolean;
  disabled: boolean;
}
interface Link {
  url: string;
  expiresAt: string | Date;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // `echo pw | ...` and `printf '%s\n' pw` end with a newline that is not part of the password.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Reads a line from the terminal without showing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stderr.write(question);
    input.setRawMode(true);
    input.resume();
    let value = '';
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          done();
          return resolve(value);
        }
        if (char === '\u0003') {
          done();
          return reject(new Error('Cancelled.'));
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    const done = () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
    };
    input.on('data', onData);
  });
}

/** The password from stdin, the terminal, or none (then a link is printed). */
async function password(fromStdin: boolean | undefined): Promise<string | undefined> {
  if (fromStdin) {
    const value = await readStdin();
    if (!value) fail('--password-stdin: standard input was empty.');
    return value;
  }
  if (!process.stdin.isTTY) return undefined;
  const first = await promptHidden('Password (at least 12 characters; empty for a one-time link instead): ');
  if (!first) return undefined;
  const second = await promptHidden('Repeat the password: ');
  if (first !== second) fail('The two passwords differ.');
  return first;
}

function printLink(link: Link): void {
  console.log(
    `One-time link (valid until ${new Date(link.expiresAt).toISOString()}; open it to choose the password):\n  ${link.url}`,
  );
}

async function main(): Promise<void> {
  const { positionals, values } = parseCommandLine(
    {
      merchant: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    USAGE,
  );
  const [action] = positionals;
  if (action === 'create') {
    if (!values.merchant) fail(`--merchant is required\n${USAGE}`);
    if (!values.email) fail(`--email is required\n${USAGE}`);
    const role = values.role;
    if (role !== 'owner' && role !== 'admin' && role !== 'viewer' && role !== 'cashier')
      fail(`--role must be owner, admin, viewer or cashier\n${USAGE}`);
    const secret = await password(values['password-stdin']);
    const { user, link } = (await runCommand({
      command: 'users.create',
      merchant: values.merchant,
      email: values.email,
      role,
      password: secret,
    })) as { user: User; link?: Link };
    if (values.json) return void console.log(JSON.stringify({ user, link }));
    console.log(`Created ${user.email} (${user.role}) for ${user.merchantName}.`);
    if (link) printLink(link);
    return;
  }
  if (action === 'list') {
    const users = (await runCommand({ command: 'users.list' })) as User[];
    if (values.json) return void console.log(JSON.stringify(users));
    if (users.length === 0) console.log('No users yet: npm run users -- create --merchant NAME --email E --role owner');
    for (const u of users) {
      const notes = [
        !u.hasPassword && 'no password yet',
        u.twoFactorEnabled && 'two-factor',
        u.disabled && 'disabled',
      ].filter(Boolean);
      console.log(`${u.merchantName}  ${u.email}  ${u.role}${notes.length ? `  (${notes.join(', ')})` : ''}`);
    }
    return;
  }
  if (action === 'reset-password') {
    if (!values.email) fail(`--email is required\n${USAGE}`);
    const secret = await password(values['password-stdin']);
    const { user, link } = (await runCommand({
      command: 'users.reset-password',
      email: values.email,
      password: secret,
    })) as { user: User; link?: Link };
    if (values.json) return void console.log(JSON.stringify({ user, link }));
    console.log(`${link ? 'Reset' : 'Set a new password for'} ${user.email}; its sessions are signed out.`);
    if (link) printLink(link);
    return;
  }
  if (action === 'disable') {
    if (!values.email) fail(`--email is required\n${USAGE}`);
    const user = (await runCommand({ command: 'users.disable', email: values.email })) as User;
    if (values.json) return void console.log(JSON.stringify(user));
    console.log(`Disabled ${user.email}; its sessions are signed out.`);
    return;
  }
  fail(USAGE);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
