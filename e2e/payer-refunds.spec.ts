/**
 * The payer's refund choices on the payment page (docs/decisions/082, 088), on one gateway of its
 * own in test mode whose payer mail goes to a real SMTP server on 127.0.0.1 (MAIL_TEST_MODE=send):
 * an overpaid litecoin order's "Claim the excess", the claim mail caught, its link opened and the
 * address confirmed on the claim page, then the refund sent on chain by the merchant (the refund
 * plan prepared on the dashboard, signed in this process by the signer's own functions with the
 * public test seed, docs/decisions/097, submitted through `collections/submit`, mined by the
 * sandbox, confirmed by the watcher, its refund-sent mail caught); the same for an overpaid USD
 * invoice paid in LTC, its payer's e-mail given with the coin choice and the excess claimed on the
 * invoice page (docs/decisions/110); an underpaid order's "Get back
 * what I sent", posted without JavaScript; an expired order paid late (no late-payment rule), its
 * late payment asked back. The page answers alike whatever came of the post, and the order's
 * status never moves.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
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
  await ownerContext?.close();
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

/** The payer's claim page at `claim`: the refund's amount shown, a litecoin address given, reviewed and confirmed. */
async function confirmRefundAddress(page: Page, claim: string, amount: string): Promise<void> {
  const refundAddress = (await gw.makeOrder({ currency: 'LTC', network: 'litecoin', amount: '1' })).address;
  await page.goto(claim);
  await expect(page.getByTestId('refund-amount')).toContainText(amount);
  await page.getByLabel(/address/i).fill(refundAddress);
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Confirm and receive the refund here' }).click();
  await expect(page.getByRole('heading', { name: 'Address confirmed: the refund will be sent to it.' })).toBeVisible();
}

let ownerContext: BrowserContext | undefined;
let ownerPage: Promise<Page> | undefined;

/**
 * The merchant's owner on the dashboard, signed in once for the file: the treasury set (by the
 * operator's CLI, as set-up), the owner's two-factor enrolled, the spec's key allowed to submit plans.
 */
function ownerDashboard(browser: Browser): Promise<Page> {
  ownerPage ??= (async () => {
    ownerContext = await browser.newContext({ baseURL: gw.baseUrl });
    const dashboard = await ownerContext.newPage();
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
    return dashboard;
  })();
  return ownerPage;
}

/**
 * The merchant sends the refund of `orderId`: "Prepare plan" on the order's page (which then offers
 * no other way to pay it while the plan is open), the plan signed on the merchant's machine by the signer's own checks with the public test seed, submitted
 * through `collections/submit`, mined. Answers the transaction's id.
 */
async function sendRefundWithSigner(dashboard: Page, orderId: string): Promise<string> {
  await dashboard.goto(`/dashboard/orders/${orderId}`);
  await dashboard.getByRole('button', { name: 'Prepare plan' }).click();
  await dashboard.waitForURL(/\/dashboard\/funds\/plans\/[0-9a-f-]{36}\?notice=prepared/);
  const planId = new URL(dashboard.url()).pathname.split('/').pop()!;
  const planFile = await dashboard.request.get(`/dashboard/funds/plans/${planId}/file?format=plan`);
  expect(planFile.status()).toBe(200);
  // While its plan is open the refund is paid by it only: no second plan, no "Sent by hand" (docs/decisions/116).
  await dashboard.goto(`/dashboard/orders/${orderId}`);
  await expect(dashboard.getByTestId('open-plan')).toBeVisible();
  await expect(dashboard.getByRole('button', { name: 'Prepare plan' })).toHaveCount(0);
  await expect(dashboard.getByLabel(/^Sent by hand/)).toHaveCount(0);

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
  return signed.txid;
}

/** The watcher confirmed the refund of `orderId`: the payer's claim page says it arrived, the dashboard shows it with `txid`. */
async function expectRefundConfirmed(page: Page, claim: string, dashboard: Page, orderId: string, txid: string) {
  await expect
    .poll(
      async () => {
        await page.goto(claim);
        return page.getByRole('heading', { name: 'The refund has arrived.' }).count();
      },
      { timeout: 45_000 },
    )
    .toBe(1);
  await dashboard.goto(`/dashboard/orders/${orderId}`);
  const refunds = dashboard.getByRole('table', { name: 'Refunds of this order' });
  await expect(refunds).toContainText('confirmed');
  await expect(refunds).toContainText(txid);
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
  await confirmRefundAddress(page, claim, '0.05 LTC');
  expect((await gw.status(order.orderId)).status).toBe('overpaid');

  // The merchant's owner prepares the plan; the merchant's machine signs it; the watcher confirms it.
  const dashboard = await ownerDashboard(browser);
  const txid = await sendRefundWithSigner(dashboard, order.orderId);
  await expectRefundConfirmed(page, claim, dashboard, order.orderId, txid);
  // The payer's mailbox: the refund-sent mail, with its transaction.
  await expect
    .poll(() => sink.received.filter((m) => m.envelopeTo.includes(payer) && m.text.includes(txid)).length, {
      timeout: 30_000,
    })
    .toBe(1);
  expect((await gw.status(order.orderId)).status).toBe('overpaid');
});

test('an overpaid USD invoice paid in LTC: the e-mail given with the coin, the excess claimed on the invoice page, sent with the signer, confirmed', async ({
  page,
  browser,
}) => {
  const payer = 'invoice-over-payer@e2e.test';
  // 40 USD at test mode's fixed 80 USD per LTC: 0.5 LTC; paid "over", 0.05 LTC too much.
  const invoice = await gw.api<{ id: string; invoiceLink: string }>('make-invoice', {
    externalId: `e2e-over-invoice-${Date.now()}`,
    currency: 'USD',
    amount: '40',
    lifetime: 30,
    currencies: [{ currency: 'LTC', networks: ['litecoin'] }],
  });
  const invoiceStatus = async () => (await gw.api<{ status: string }>('get-invoice', { invoiceId: invoice.id })).status;

  // The payer: the invoice page, an e-mail address given with the choice of LTC, the order paid with too much.
  await page.goto(invoice.invoiceLink);
  await page.getByLabel('E-mail address (optional)').fill(payer);
  await page
    .getByRole('region', { name: /^LTC\b/ })
    .getByRole('button', { name: /^Litecoin\b/ })
    .click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}(\?|$)/);
  const orderId = new URL(page.url()).pathname.split('/').pop()!;
  await gw.pay(orderId, 'over');
  await gw.mine('litecoin', 2);
  await gw.waitForScreen(orderId, 'overpaid');
  expect(await invoiceStatus()).toBe('OVERPAID');

  // The invoice page, paid: "Claim the excess" of its order, answered as on the payment page.
  await page.goto(invoice.invoiceLink);
  await expect(heading(page)).toHaveText('Paid');
  await expect(page.getByTestId('payer-refund')).toContainText('0.05 LTC');
  await page.getByRole('button', { name: 'Claim the excess' }).click();
  await page.waitForURL(/\/invoice\/[0-9a-f-]{36}\?.*refund=asked/);
  await expect(page.getByTestId('payer-refund-notice')).toContainText('If an e-mail address was given');
  await expect(page.locator('body')).not.toContainText(payer);

  const claim = `${gw.baseUrl}${await claimLinkTo(payer)}`;
  await confirmRefundAddress(page, claim, '0.05 LTC');
  expect((await gw.status(orderId)).status).toBe('overpaid');

  const dashboard = await ownerDashboard(browser);
  const txid = await sendRefundWithSigner(dashboard, orderId);
  await expectRefundConfirmed(page, claim, dashboard, orderId, txid);
  await expect
    .poll(() => sink.received.filter((m) => m.envelopeTo.includes(payer) && m.text.includes(txid)).length, {
      timeout: 30_000,
    })
    .toBe(1);
  // Final stays final: the order and the invoice never moved.
  expect((await gw.status(orderId)).status).toBe('overpaid');
  expect(await invoiceStatus()).toBe('OVERPAID');
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
