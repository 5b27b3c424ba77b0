/**
 * Dashboard helpers for specs: users made through the users CLI (as an operator makes them), a
 * sign-in through the real form, and TOTP codes as an authenticator app computes them.
 *
 *   import { createUser, signIn, totpCode } from './support/dashboard';
 *   const owner = await createUser({ role: 'owner' });          // merchant "e2e", a fresh address
 *   await signIn(page, owner.email, owner.password);
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { runCliOn } from './server';

export type Role = 'owner' | 'admin' | 'viewer' | 'cashier';

export interface CreatedUser {
  id: string;
  email: string;
  password: string;
  role: Role;
  merchantId: string;
}

/** A password the policy accepts (long, random, not common). */
export function strongPassword(): string {
  return `pw-${randomBytes(12).toString('base64url')}`;
}

/** A fresh address on the e2e merchant's domain. */
export function freshEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now()}-${randomBytes(3).toString('hex')}@e2e.test`;
}

/**
 * `npm run users -- create --merchant M --email E --role R --password-stdin` against the gateway
 * under test, the password written to the CLI's standard input. Defaults: merchant `e2e` (made by
 * global-setup.ts), a fresh address, a strong password.
 */
export async function createUser(
  options: { merchant?: string; email?: string; role?: Role; password?: string; dataDir?: string } = {},
): Promise<CreatedUser> {
  const email = options.email ?? freshEmail(options.role ?? 'owner');
  const password = options.password ?? strongPassword();
  const role = options.role ?? 'owner';
  const out = await runUsersCli(
    ['create', '--merchant', options.merchant ?? 'e2e', '--email', email, '--role', role, '--password-stdin', '--json'],
    `${password}\n`,
    options.dataDir,
  );
  const { user } = JSON.parse(out.trim().split('\n').pop() ?? '') as {
    user: { id: string; email: string; merchantId: string };
  };
  return { id: user.id, email: user.email, password, role, merchantId: user.merchantId };
}

/** `npm run users -- ARGS` against the gateway under test (or the one holding `dataDir`), through its control endpoint, with `stdin`; answers stdout. */
export function runUsersCli(args: string[], stdin = '', dataDir = process.env.E2E_DATA_DIR): Promise<string> {
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the specs with `npm run test:e2e`.');
  return runCliOn(dataDir, 'users', args, stdin);
}

/**
 * The code an authenticator shows for `secret` (base32) now, or `steps` periods of 30 s later:
 * the server accepts one step either side and each step once, so a second sign-in within the
 * same 30 s uses `totpCode(secret, 1)`.
 */
export function totpCode(secret: string, steps = 0): string {
  return new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

/**
 * Signs in through /dashboard/sign-in (and its two-factor step when `totpSecret` is given), and
 * waits until the browser has left the sign-in pages.
 */
export async function signIn(
  page: Page,
  email: string,
  password: string,
  totpSecret?: string,
  options: { next?: string; codeSteps?: number } = {},
): Promise<void> {
  await page.goto(`/dashboard/sign-in${options.next ? `?next=${encodeURIComponent(options.next)}` : ''}`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (totpSecret) {
    await page.waitForURL(/\/dashboard\/sign-in\/two-factor/);
    await page.getByLabel('Code').fill(totpCode(totpSecret, options.codeSteps ?? 0));
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  // 'commit': a server action's redirect is a client-side navigation, which fires no load event.
  await page.waitForURL((url) => !url.pathname.startsWith('/dashboard/sign-in'), { waitUntil: 'commit' });
}

/** Turns two-factor on for the signed-in user on the account page; answers the TOTP secret. */
export async function enrolTwoFactor(page: Page): Promise<string> {
  await page.goto('/dashboard/account');
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Turn two-factor on' }).click();
  await page.getByTestId('shown-once').getByText('Recovery codes').first().waitFor();
  return secret;
}

/**
 * The id of the server action a form of `page` posts (Next.js writes it into the form's hidden
 * `$ACTION_n:0` field for posts without JavaScript), and the form's hidden fields.
 */
export async function serverAction(
  page: Page,
  form: string,
): Promise<{ id: string; fields: (readonly [string, string])[] }> {
  const fields = await page
    .locator(form)
    .evaluate((element) =>
      [...(element as HTMLFormElement).querySelectorAll('input[type="hidden"]')].map(
        (i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value] as const,
      ),
    );
  const encoded = fields.find(([name]) => /^\$ACTION_\d+:0$/.test(name));
  if (!encoded) throw new Error(`${form} posts no server action`);
  return { id: (JSON.parse(encoded[1]) as { id: string }).id, fields };
}

export { callServerAction } from '../../tests/support/server-action';
