/**
 * "Forgot password?" end to end (docs/decisions/065): a gateway of its own mails through a real
 * SMTP server on 127.0.0.1; the form answers alike for a known and an unknown address, the mailed
 * link sets a new password once, the user signs in with it, and the link is in no line of the
 * server's log (at debug level). Expiry and equal work: tests/password-reset.pglite.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { startSmtpSink } from '../tests/support/smtp-sink';
import { expectAccessible } from './pay-support';
import { createUser, freshEmail, signIn, strongPassword } from './support/dashboard';
import { expect, runCli, test } from './support/fixtures';
import { startGatewayServer } from './support/server';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Chromium's console errors of `context`'s pages: none is expected. */
function consoleErrors(context: BrowserContext): string[] {
  const errors: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  context.on('weberror', (error) => errors.push(error.error().message));
  return errors;
}

test('forgot password: one answer for every address, a mailed link that works once, sign-in with the new password', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const sink = await startSmtpSink();
  const logFile = path.join(ROOT, '.tmp', 'e2e-forgot-password.log');
  const server = await startGatewayServer(logFile, {
    SMTP_URL: sink.url,
    MAIL_FROM: 'gateway@e2e.test',
    MAIL_POLL_MS: '200',
    LOG_LEVEL: 'debug',
    DEMO_STORE: 'false',
  });
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const errors = consoleErrors(context);
  try {
    await runCli('keys', ['create', '--name', 'reset', '--mode', 'test'], server.dataDir);
    const user = await createUser({ merchant: 'reset', role: 'viewer', dataDir: server.dataDir });
    const page = await context.newPage();

    await page.goto('/dashboard/sign-in');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/dashboard\/forgot-password$/);
    await expectAccessible(page, 'the forgot-password page');
    const ask = async (email: string) => {
      await page.goto('/dashboard/forgot-password');
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send me a link' }).click();
      await expect(page.getByTestId('forgot-sent')).toBeVisible();
      return page.getByTestId('forgot-sent').textContent();
    };
    const unknownAnswer = await ask(freshEmail('nobody'));
    const knownAnswer = await ask(user.email);
    expect(knownAnswer).toBe(unknownAnswer);
    expect(knownAnswer).toContain('If an account exists for that address, we sent a link');

    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBe(1);
    const [mail] = sink.received;
    expect(mail!.envelopeTo).toEqual([user.email]);
    const link = /https?:\/\/\S+\/dashboard\/set-up\/[A-Za-z0-9_-]{43}/.exec(mail!.text)?.[0];
    expect(link, mail!.text).toBeDefined();

    const password = strongPassword();
    await page.goto(link!);
    await page.getByLabel('New password').fill(password);
    await page.getByLabel('Repeat the password').fill(password);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The link used twice is refused.
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();

    // Signing in with the new password, in a fresh browser.
    const other = await browser.newContext({ baseURL: server.baseUrl });
    const otherErrors = consoleErrors(other);
    const otherPage = await other.newPage();
    await signIn(otherPage, user.email, password);
    await expect(otherPage).toHaveURL(/\/dashboard$/);
    await other.close();

    const token = link!.split('/').pop()!;
    expect(fs.readFileSync(logFile, 'utf8').includes(token)).toBe(false);
    expect([...errors, ...otherErrors]).toEqual([]);
  } finally {
    await context.close();
    await server.stop();
    await sink.close();
  }
});
