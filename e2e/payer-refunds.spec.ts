/**
 * The payer's refund choices on the payment page (docs/decisions/082, 088), on one gateway of its
 * own in test mode whose payer mail goes to a real SMTP server on 127.0.0.1 (MAIL_TEST_MODE=send):
 * an overpaid litecoin order's "Claim the excess", the claim mail caught, its link opened and the
 * address confirmed on the claim page, then the refund sent on chain by the merchant (the refund
 * plan prepared on the dashboard, signed in this process by the signer's own functions with the
 * public test seed, docs/decisions/097, submitted through `collections/submit`, mined by the
 * sandbox, confirmed by the watcher, its refund-sent mail caught); an underpaid order's "Get back
 * what I sent", posted without JavaScript; an expired order paid late (no late-payment rule), its
 * late payment asked back. The page answers alike whatever came of the post, and the order's
 * status never moves.
 */
import type { Page } from '@playwright/test';
import { rootOfPhrase, signerConfigSchema, signPlan } from '../scripts/signer/sign-plan';
import { startSmtpSink, type SmtpSink } from '../tests/support/smtp-sink';
import { startOwnGateway, type OwnGateway } from './pay-support';
import { createUser, enrolTwoFactor, signIn, totpCode } from './support/dashboard';
import { expect, test } from './support/fixtures';
import { runCliOn } from './support/server';

let gw: OwnGateway;
let sink: SmtpSink;

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  sink = await startSmtpSink();
  gw = await startOwnGateway('payer-refunds', {
    SMTP_URL: sink.url,
    MAIL_TEST_MODE: 'send',
    MAIL_FROM: 'gateway@e2e.test',
    MAIL_POLL_MS: '200',
  });
});

test.afterAll(async () => {
  await gw?.stop();
  await sink?.close();
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** The merchant pay-support's startOwnGateway makes for this spec (`keys create --name e2e-<name>`). */
const MERCHANT = 'e2e-payer-refunds';
/** The public test seed (BIP 39's all-"abandon" phrase): test mode's deposit addresses are its keys. */
const TEST_PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
/** The merchant's litecoin treasury, where a refund plan's change goes. */
const TREASURY = 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh';

/** The claim link of the refund-claim mail to `recipient`, as a path of this gateway. */
async function claimLinkTo(recipient: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mail = sink.received.find((m) => m.envelopeTo.includes(recipient) && /\/refund\//.test(m.text));
        link = mail && /https?:\/\/[^/\s]+(\/refund\/[A-Za-z0-9_-]{43}\?lang=[\w-]+)/.exec(mail.text)?.[1];
        return link;
      },
      { timeout: 30_000 },
    )
    .toBeDefined();
  return link!;
}

test('an overpaid litecoin order: the excess claimed by the payer, sent with the signer and the test seed, confirmed and mailed', async ({
  page,
  browser,
}) => {
  const payer = 'ltc-over-payer@e2e.test';
  const order = await gw.makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.5', payerEmail: payer });
  await gw.pay(order.orderId, 'over');
  await gw.mine('litecoin', 2);
  await gw.waitForScreen(order.orderId, 'overpaid');

  // The payer: "Claim the excess", the link from the mailbox, the address confirmed.
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  await expect(page.getByTestId('payer-refund')).toContainText('0.05 LTC');
  await page.getByRole('button', { name: 'Claim the excess' }).click();
  await page.waitForURL(/\?.*refund=asked/);
  // One answer, whether or not the order has an address: the page names none.
  const notice = page.getByTestId('payer-refund-notice');
  await expect(notice).toContainText('If an e-mail address was given with this order');
  await expect(page.locator('body')).not.toContainText(payer);
  await expect(page.getByRole('button', { name: 'Claim the excess' })).toHaveCount(0);

  // The payer's mailbox: the claim link opens the claim page, where the address is given and confirmed.
  const claim = `${gw.baseUrl}${await claimLinkTo(payer)}`;
  const refundAddress = (await gw.makeOrder({ currency: 'LTC', network: 'litecoin', amount: '1' })).address;
  await page.goto(claim);
  await expect(page.getByTestId('refund-amount')).toContainText('0.05 LTC');
  await page.getByLabel(/address/i).fill(refundAddress);
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Confirm and receive the refund here' }).click();
  await expect(page.getByRole('heading', { name: 'Address confirmed: the refund will be sent to it.' })).toBeVisible();
  expect((await gw.status(order.orderId)).status).toBe('overpaid');

  // The merchant's owner: the treasury (by the operator's CLI, as set-up), the key allowed to submit
  // plans (with a current code), then "Prepare plan" on the order's refund.
  const merchant = await browser.newContext({ baseURL: gw.baseUrl });
  const dashboard = await merchant.newPage();
  const [owner] = await Promise.all([
    createUser({ merchant: MERCHANT, role: 'owner', dataDir: gw.dataDir }),
    runCliOn(gw.dataDir, 'collect', ['treasury', MERCHANT, 'litecoin', TREASURY, '--mode', 'test']),
  ]);
  await signIn(dashboard, owner.email, owner.password, undefined, { next: '/dashboard/account' });
  const secret = await enrolTwoFactor(dashboard);
  await dashboard.goto('/dashboard/keys');
  const key = dashboard.getByTestId('key-row').and(dashboard.locator(`[data-public-key="${gw.keys.publicKey}"]`));
  await key.getByText('Money-out scopes…').click();
  await key.getByRole('checkbox', { name: /^Signing plans/ }).check();
  await key.getByLabel('Authenticator code').fill(totpCode(secret, 1));
  await key.getByRole('button', { name: 'Save money-out scopes' }).click();
  await expect(dashboard.getByRole('status').filter({ hasText: 'money-out scopes are saved' })).toBeVisible();

  await dashboard.goto(`/dashboard/orders/${order.orderId}`);
  await dashboard.getByRole('button', { name: 'Prepare plan' }).click();
  await dashboard.waitForURL(/\/dashboard\/funds\/plans\/[0-9a-f-]{36}\?notice=prepared/);
  const planId = new URL(dashboard.url()).pathname.split('/').pop()!;
  const planFile = await dashboard.request.get(`/dashboard/funds/plans/${planId}/file?format=plan`);
  expect(planFile.status()).toBe(200);

  // The merchant's machine: the signer's own checks and signature, with the public test seed.
  const config = signerConfigSchema.parse({
    network: 'litecoin',
    treasury: TREASURY,
    maxFee: '0.001',
    refundDailyCap: '1',
  });
  const { signed, ledgerEntry } = await signPlan(await planFile.text(), config, rootOfPhrase(TEST_PHRASE), {
    confirm: async () => true,
  });
  expect(ledgerEntry).not.toBeNull();
  const submitted = await gw.api<{ txid: string }>('collections/submit', { id: planId, transaction: signed.rawTx });
  expect(submitted.txid).toBe(signed.txid);
  await gw.mine('litecoin', 3);

  // The payer's claim page, the dashboard and the payer's mailbox: confirmed, with its transaction.
  await expect
    .poll(
      async () => {
        await page.goto(claim);
        return page.getByRole('heading', { name: 'The refund has arrived.' }).count();
      },
      { timeout: 45_000 },
    )
    .toBe(1);
  await dashboard.goto(`/dashboard/orders/${order.orderId}`);
  const refunds = dashboard.getByRole('table', { name: 'Refunds of this order' });
  await expect(refunds).toContainText('confirmed');
  await expect(refunds).toContainText(signed.txid);
  await expect
    .poll(() => sink.received.filter((m) => m.envelopeTo.includes(payer) && m.text.includes(signed.txid)).length, {
      timeout: 30_000,
    })
    .toBe(1);
  await merchant.close();
  expect((await gw.status(order.orderId)).status).toBe('overpaid');
});

test('an underpaid order after expiry: "Get back what I sent" without JavaScript, asked once', async ({ browser }) => {
  const payer = 'short-payer@e2e.test';
  const order = await gw.makeOrder({ currency: 'ETH', network: 'arbitrum', amount: '0.02', payerEmail: payer });
  await gw.pay(order.orderId, 'partial');
  await gw.mine('arbitrum', 2);
  await gw.waitForScreen(order.orderId, 'partially-paid');
  await gw.mine('arbitrum', 1, new Date(Date.parse(order.expiresAt) + 1000));
  await gw.waitForScreen(order.orderId, 'underpaid', 45_000);

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const page = await noScript.newPage();
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  await expect(heading(page)).toHaveText('Underpaid');
  await expect(page.getByTestId('payer-refund')).toContainText('0.01 ETH');
  await page.getByRole('button', { name: 'Get back what I sent' }).click();
  await page.waitForURL(/\?.*refund=asked/);
  await expect(page.getByTestId('payer-refund-notice')).toBeVisible();
  await claimLinkTo(payer);

  // Asked again (the page read afresh, the button is there): the same answer, no second mail.
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  await page.getByRole('button', { name: 'Get back what I sent' }).click();
  await page.waitForURL(/\?.*refund=asked/);
  await expect(page.getByTestId('payer-refund-notice')).toBeVisible();
  await noScript.close();
  expect(sink.received.filter((m) => m.envelopeTo.includes(payer) && /\/refund\//.test(m.text))).toHaveLength(1);
  expect((await gw.status(order.orderId)).status).toBe('partial');
});

test('paid late, outside the merchant\'s rule (none): "Get back what I sent" for the late payment', async ({
  page,
}) => {
  const payer = 'late-payer@e2e.test';
  // A network of its own: a block dated after the deadline dates every later block of its network.
  const order = await gw.makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.01', payerEmail: payer });
  await gw.mine('ethereum', 1, new Date(Date.parse(order.expiresAt) + 1000));
  await gw.waitForScreen(order.orderId, 'expired', 45_000);
  await gw.pay(order.orderId, 'full');
  await gw.mine('ethereum', 2);
  // The offer waits for the late payment's confirmations.
  await expect
    .poll(
      async () => {
        await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
        return page.getByTestId('payer-refund').count();
      },
      { timeout: 45_000 },
    )
    .toBe(1);
  await expect(heading(page)).toHaveText('Paid late');
  await expect(page.getByTestId('payer-refund')).toContainText('0.01 ETH');
  await page.getByRole('button', { name: 'Get back what I sent' }).click();
  await page.waitForURL(/\?.*refund=asked/);
  await expect(page.getByTestId('payer-refund-notice')).toBeVisible();
  await claimLinkTo(payer);
  expect((await gw.status(order.orderId)).status).toBe('expired');
});
