/**
 * Refunds on the dashboard's order page (docs/refunds.md), over real HTTP against the production
 * build, posting the page's own forms as a browser without JavaScript does: an owner refunds part
 * of a processed order (audited; the claim link shown once, never in a URL), cancels it (audited);
 * a viewer sees no form and its direct post is refused (sent to the 403 page) with nothing written. Above the
 * owner's threshold a refund waits for a second person: not the one who made it, not a viewer; the approval audited.
 * A mispaid order's "Refund what arrived" (decision 091), and no decision while its payer's refund stands.
 * A refund sent by hand is completed by its transaction id, verified on the sandbox ledger (decision 092): a
 * transaction that pays another address refused with what the chain showed (by cookie, not in the URL), the right
 * one accepted and audited, a viewer refused. An invoice's order is refunded in the invoice's fiat at the rate
 * chosen among the three shown side by side (the invoice's, the current, one's own), the fee taken from the refund
 * when ticked. One sent by hand whose transaction vanished says since when, and after an hour "Mark as
 * not sent" fails it (decision 129): a viewer refused, the owner's audited. The order's status never moves.
 */
import { beforeAll, expect, it } from 'vitest';
import { findNetwork } from '@/lib/catalog';
import { broadcast } from '@/lib/chains';
import { drop } from '@/lib/chains/sandbox';
import { chooseCoin } from '@/lib/invoices';
import { requestPayerRefund } from '@/lib/mispayments';
import { cancelRefund, confirmClaim, makeRefund, setRefundApprovalRule } from '@/lib/refunds';
import { createUser, openSession } from '@/lib/users';
import type { OrderRow } from '@/lib/orders/rows';
import { createOrder } from './support/chain';
import { call, withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

let order: OrderRow;

beforeAll(async () => {
  order = await createOrder(gateway.db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '2' });
  await gateway.db.query(`update orders set status = 'processed', received = amount where id = $1`, [order.id]);
});

async function cookieOf(role: 'owner' | 'admin' | 'viewer'): Promise<string> {
  const { user } = await createUser(gateway.db, {
    merchant: merchant.merchantId,
    email: `${role}-${crypto.randomUUID()}@shop.example`,
    role,
    password: 'a long and unguessable dashboard password',
  });
  const session = await openSession(gateway.db, user.id, 'signed-in', {});
  return `cg_session=${session.token}`;
}

const pagePath = () => `/dashboard/orders/${order.id}`;

async function page(cookie: string, path = pagePath()): Promise<string> {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
  expect(response.status).toBe(200);
  return response.text();
}

const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The fields of the page's form whose submit button says `label`, as a browser sends them. */
function formFields(html: string, label: string): [string, string][] {
  const at = html.indexOf(`>${label}</button>`);
  expect(at, `a form with ${label}`).toBeGreaterThan(0);
  const form = html.slice(html.lastIndexOf('<form', at), at);
  return [...form.matchAll(/<input\b([^>]*)>/g)]
    .map((match) => match[1]!)
    .filter((attributes) => /type="hidden"/.test(attributes))
    .map(
      (attributes) =>
        [
          unescape(/name="([^"]*)"/.exec(attributes)?.[1] ?? ''),
          unescape(/value="([^"]*)"/.exec(attributes)?.[1] ?? ''),
        ] as [string, string],
    );
}

async function post(cookie: string, fields: [string, string][]) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return fetch(`${gateway.baseUrl}${pagePath()}`, {
    method: 'POST',
    body: form,
    headers: { cookie },
    redirect: 'manual',
  });
}

async function audit(action: string) {
  return gateway.db.query<{ detail: Record<string, string> }>(
    'select detail from audit_log where merchant_id = $1 and action = $2',
    [merchant.merchantId, action],
  );
}

it('lets an owner refund part of an order and cancel it, each audited, the order unchanged', async () => {
  const owner = await cookieOf('owner');
  const fields = formFields(await page(owner), 'Refund');
  const made = await post(owner, [...fields, ['amount', '0.5']]);
  expect(made.status).toBe(303);
  expect(made.headers.get('location')).toContain('refund=made');
  expect(made.headers.get('location')).not.toContain('/refund/');
  const cookie = decodeURIComponent(made.headers.get('set-cookie') ?? '');
  expect(cookie).toMatch(/cg_refund_claim=.*\/refund\/[A-Za-z0-9_-]{43}/);
  expect(cookie).toMatch(/HttpOnly/i);
  const [refund] = await gateway.db.query<{ id: string; amount: string; state: string }>(
    'select id, amount, state from refunds where order_id = $1',
    [order.id],
  );
  expect(refund).toMatchObject({ amount: '50000000', state: 'awaiting_address' });
  expect((await audit('refund.create')).map((a) => a.detail)).toEqual([
    expect.objectContaining({ refundId: refund!.id, amount: '0.5', currency: 'LTC' }),
  ]);

  const over = await post(owner, [...fields, ['amount', '1.50000001']]);
  expect(over.headers.get('location')).toContain('refund=exceeds');

  const cancel = await post(owner, formFields(await page(owner), 'Cancel'));
  expect(cancel.headers.get('location')).toContain('refund=canceled');
  expect((await audit('refund.cancel')).map((a) => a.detail.refundId)).toEqual([refund!.id]);
  const [row] = await gateway.db.query<{ status: string }>('select status from orders where id = $1', [order.id]);
  expect(row!.status).toBe('processed');
});

it("shows a viewer no refund form, and refuses the viewer's own post with nothing written", async () => {
  const owner = await cookieOf('owner');
  const fields = formFields(await page(owner), 'Refund');
  const viewer = await cookieOf('viewer');
  expect(await page(viewer)).not.toContain('>Refund</button>');
  const [before] = await gateway.db.query<{ n: number }>('select count(*)::int as n from refunds');
  // Posted without JavaScript, a refusal is sent on to the page that answers 403 (app/dashboard/session.ts).
  const refused = await post(viewer, [...fields, ['amount', '0.1']]);
  expect(refused.status).toBe(303);
  expect(refused.headers.get('location')).toMatch(/\/dashboard\/forbidden$/);
  const [after] = await gateway.db.query<{ n: number }>('select count(*)::int as n from refunds');
  expect(after!.n).toBe(before!.n);
});

it("waits above the owner's threshold for a second person's approval: not its maker's, not a viewer's; audited", async () => {
  await setRefundApprovalRule(gateway.db, merchant.merchantId, { above: '10', currency: 'USD' });
  const maker = await cookieOf('owner');
  // 0.5 LTC at the test mode's 80 USD is 40 USD: above 10.
  const made = await post(maker, [...formFields(await page(maker), 'Refund'), ['amount', '0.5']]);
  expect(made.headers.get('location')).toContain('refund=made');
  const shown = await page(maker);
  expect(shown).toContain('needs a second person’s approval');
  const approve = formFields(shown, 'Approve');
  expect((await post(maker, approve)).headers.get('location')).toContain('refund=state');
  const viewer = await cookieOf('viewer');
  expect(await page(viewer)).not.toContain('>Approve</button>');
  expect((await post(viewer, approve)).headers.get('location')).toMatch(/\/dashboard\/forbidden$/);
  const [waiting] = await gateway.db.query<{ id: string; approval: string }>(
    "select id, approval from refunds where order_id = $1 and state = 'awaiting_address'",
    [order.id],
  );
  expect(waiting!.approval).toBe('required');
  const second = await cookieOf('admin');
  expect((await post(second, approve)).headers.get('location')).toContain('refund=approved');
  const [approved] = await gateway.db.query<{ approval: string; approved_by: string }>(
    'select approval, approved_by from refunds where id = $1',
    [waiting!.id],
  );
  expect(approved!.approval).toBe('approved');
  expect((await audit('refund.approve')).map((a) => a.detail.refundId)).toEqual([waiting!.id]);
  expect((await post(second, approve)).headers.get('location')).toContain('refund=state');
  const [row] = await gateway.db.query<{ status: string }>('select status from orders where id = $1', [order.id]);
  expect(row!.status).toBe('processed');
  await setRefundApprovalRule(gateway.db, merchant.merchantId, { above: null, currency: 'USD' });
});

it('"Refund what arrived" on a mispaid order (decision 091): the refunds permission, fee deducted, settled, audited; a payer\'s refund stops the decision', async () => {
  const mispaid = async () => {
    const made = await createOrder(gateway.db, merchant.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '2',
      payerEmail: 'short@shop.example',
    });
    await gateway.db.query(`update orders set status = 'partial', received = 50000000 where id = $1`, [made.id]);
    return `/dashboard/orders/${made.id}`;
  };
  const read = async (path: string, cookie: string) => {
    const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
    expect(response.status).toBe(200);
    return response.text();
  };
  const send = (path: string, cookie: string, fields: [string, string][]) => {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    return fetch(`${gateway.baseUrl}${path}`, { method: 'POST', body: form, headers: { cookie }, redirect: 'manual' });
  };
  const refundsOf = (path: string) =>
    gateway.db.query<{ amount: string; fee_from_refund: boolean; created_by: string }>(
      'select amount, fee_from_refund, created_by from refunds where order_id = $1',
      [path.split('/').pop()],
    );

  const path = await mispaid();
  const viewer = await cookieOf('viewer');
  expect(await read(path, viewer)).not.toContain('>Refund what arrived</button>');
  const admin = await cookieOf('admin');
  const fields = formFields(await read(path, admin), 'Refund what arrived');
  expect((await send(path, viewer, fields)).headers.get('location')).toMatch(/\/dashboard\/forbidden$/);
  expect(await refundsOf(path)).toEqual([]);

  const decided = await send(path, admin, fields);
  expect(decided.headers.get('location')).toContain('decided=refund');
  const handed = /cg_refund_claim=([^;]*)/.exec(decided.headers.get('set-cookie') ?? '')?.[1];
  expect(decodeURIComponent(handed ?? '')).toMatch(/\/refund\//);
  // The link is shown beside its refund, on the page the decision leads to (decision 102).
  const [link] = (await read(path, `${admin}; cg_refund_claim=${handed}`)).match(
    /data-testid="claim-link".*?<\/span>/g,
  )!;
  expect(link).toContain(decodeURIComponent(handed!).split(' ')[1]);
  const [refund] = await refundsOf(path);
  expect(refund).toMatchObject({
    amount: '50000000',
    fee_from_refund: true,
    created_by: expect.stringMatching(/^user:/),
  });
  expect((await audit('order.mispayment-decision')).map((a) => a.detail)).toContainEqual(
    expect.objectContaining({ orderId: path.split('/').pop(), decision: 'refund' }),
  );
  expect(await read(path, admin)).toContain('what arrived was refunded');
  expect((await send(path, admin, fields)).headers.get('location')).toContain('decided=none');
  expect(await refundsOf(path)).toHaveLength(1);

  // The payer asked for what it sent back: no decision offered, and a post of one refused with nothing written.
  const asked = await mispaid();
  const accept = formFields(await read(asked, admin), 'Accept what arrived');
  await requestPayerRefund(gateway.db, asked.split('/').pop()!, 'sent', new Date());
  const shown = await read(asked, admin);
  expect(shown).toContain('its payer asked for what they sent back');
  expect(shown).not.toContain('>Accept what arrived</button>');
  expect((await send(asked, admin, accept)).headers.get('location')).toContain('decided=refunding');
  const settled = await gateway.db.query('select kind from order_resolutions where order_id = $1', [
    asked.split('/').pop(),
  ]);
  expect(settled).toEqual([]);
  const [row] = await gateway.db.query<{ status: string }>('select status from orders where id = $1', [
    asked.split('/').pop(),
  ]);
  expect(row!.status).toBe('partial');
});

it('flags an underpaid order "needs a decision" from the minimum up, never for dust (decision 102)', async () => {
  const underpaid = async (received: number) => {
    const made = await createOrder(gateway.db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '2' });
    await gateway.db.query(`update orders set status = 'partial', received = $2 where id = $1`, [made.id, received]);
    return made.id;
  };
  // The minimum is 1 % of 2 LTC: 0.02 LTC.
  const dust = await underpaid(1_999_999);
  const short = await underpaid(2_000_000);
  const list = await page(await cookieOf('viewer'), '/dashboard/orders');
  const rowOf = (id: string) => {
    const at = list.indexOf(`data-order-id="${id}"`);
    expect(at, `the row of ${id}`).toBeGreaterThan(0);
    return list.slice(at, list.indexOf('</tr>', at));
  };
  expect(rowOf(dust)).not.toContain('needs a decision');
  expect(rowOf(short)).toContain('needs a decision');
});

it("shows each refund's claim link once, beside it, when several were just made (decision 102)", async () => {
  const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
  const make = () =>
    makeRefund(gateway.db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 1_000_000n,
      createdBy: 'test',
      now: new Date(),
    });
  const [first, second, earlier] = [await make(), await make(), await make()];
  const handed = encodeURIComponent([first, second].map((m) => `${m.refund.id} ${m.claimUrl}`).join(' '));
  const html = await page(`${await cookieOf('owner')}; cg_refund_claim=${handed}`);
  const rows = [...html.matchAll(/<tr>(.*?)<\/tr>/gs)].map((m) => m[1]!);
  const rowOf = (id: string) => {
    const row = rows.filter((cells) => cells.includes(`value="${id}"`));
    expect(row, `the row of ${id}`).toHaveLength(1);
    return row[0]!;
  };
  for (const made of [first, second]) {
    expect(rowOf(made.refund.id)).toContain(made.claimUrl);
    // Once: in its own row only (the page's React payload repeats its text outside the table).
    expect(rows.filter((cells) => cells.includes(made.claimUrl))).toHaveLength(1);
  }
  // A refund whose link was handed over before: its claim's state, and Reopen claim for a new link.
  expect(rowOf(earlier.refund.id)).not.toContain(earlier.claimUrl);
  expect(rowOf(earlier.refund.id)).toContain('Reopen claim for a new one');
  for (const made of [first, second, earlier]) await cancelRefund(gateway.db, scope, made.refund.id, new Date());
});

it('completes a refund sent by hand by its transaction id, verified on chain; refuses another payment; audited', async () => {
  const litecoin = findNetwork('litecoin')!;
  const payer = (await createOrder(gateway.db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' }))
    .address;
  const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
  const made = await makeRefund(gateway.db, scope, {
    target: { kind: 'order', id: order.id },
    amount: 10_000_000n,
    createdBy: 'test',
    now: new Date(),
  });
  const token = made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1);
  await confirmClaim(gateway.db, token, { address: payer, tag: '' }, new Date());
  const pay = async (to: string, amount: bigint) =>
    (await broadcast(gateway.db, { network: litecoin, to, currency: 'LTC', amount })).txHash;

  const owner = await cookieOf('owner');
  const fields = formFields(await page(owner), 'Complete');
  const elsewhere = await post(owner, [...fields, ['txId', await pay(order.address, 10_000_000n)]]);
  expect(elsewhere.headers.get('location')).toMatch(/refund=transaction$/);
  expect(decodeURIComponent(elsewhere.headers.get('set-cookie') ?? '')).toContain(
    `This transaction pays no LTC to the refund's address ${payer}.`,
  );
  const viewer = await cookieOf('viewer');
  const txId = await pay(payer, 10_000_000n);
  expect((await post(viewer, [...fields, ['txId', txId]])).headers.get('location')).toMatch(/\/dashboard\/forbidden$/);
  expect((await audit('refund.complete')).length).toBe(0);

  const done = await post(owner, [...fields, ['txId', txId]]);
  expect(done.headers.get('location')).toMatch(/refund=completed$/);
  const [refund] = await gateway.db.query<{ state: string; txid: string }>(
    'select state, txid from refunds where id = $1',
    [made.refund.id],
  );
  expect(refund).toMatchObject({ txid: txId });
  expect(['sent', 'confirmed']).toContain(refund!.state);
  expect((await audit('refund.complete')).map((a) => a.detail)).toEqual([
    expect.objectContaining({ refundId: made.refund.id, txId, state: refund!.state }),
  ]);
  const [row] = await gateway.db.query<{ status: string }>('select status from orders where id = $1', [order.id]);
  expect(row!.status).toBe('processed');
});

it('says since when a transaction sent by hand is missing; after an hour "Mark as not sent" fails it, audited', async () => {
  const litecoin = findNetwork('litecoin')!;
  const payer = (await createOrder(gateway.db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' }))
    .address;
  const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
  const made = await makeRefund(gateway.db, scope, {
    target: { kind: 'order', id: order.id },
    amount: 1_000_000n,
    createdBy: 'test',
    now: new Date(),
  });
  await confirmClaim(
    gateway.db,
    made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1),
    { address: payer, tag: '' },
    new Date(),
  );
  const { txHash } = await broadcast(gateway.db, { network: litecoin, to: payer, currency: 'LTC', amount: 1_000_000n });
  await drop(gateway.db, litecoin, txHash);
  // As lib/refunds leaves it after its watcher's passes missed the transaction for two hours
  // (those passes: tests/refunds-by-hand.pglite.test.ts).
  const missingSince = new Date(Date.now() - 2 * 3_600_000);
  await gateway.db.query(
    `update refunds set state = 'sent', sent_by_hand = true, txid = $2, missing_since = $3, version = version + 1 where id = $1`,
    [made.refund.id, txHash, missingSince],
  );
  const owner = await cookieOf('owner');
  const html = await page(owner);
  expect(unescape(html)).toContain(`Your node has not found transaction ${txHash} since`);
  const fields = formFields(html, 'Mark as not sent');
  const viewer = await cookieOf('viewer');
  expect((await post(viewer, fields)).headers.get('location')).toMatch(/\/dashboard\/forbidden$/);
  expect((await audit('refund.fail')).length).toBe(0);

  const done = await post(owner, fields);
  expect(done.headers.get('location')).toMatch(/refund=not-sent$/);
  const [refund] = await gateway.db.query<{ state: string }>('select state from refunds where id = $1', [
    made.refund.id,
  ]);
  expect(refund!.state).toBe('failed');
  expect((await audit('refund.fail')).map((a) => a.detail)).toEqual([
    expect.objectContaining({ refundId: made.refund.id, txId: txHash, missingSince: missingSince.toISOString() }),
  ]);
  expect(await page(owner, `${pagePath()}?refund=not-sent`)).toContain('Marked not sent: the payer was not paid');
});

it("refunds an invoice's order in its fiat at the rate chosen of the three shown side by side, the fee choice kept", async () => {
  const made = await call(
    gateway,
    'make-invoice',
    { currency: 'USD', amount: '100', externalId: 'dashboard-refund-rates', currencies: [{ currency: 'LTC' }] },
    merchant.test,
  );
  const invoiceOrder = await chooseCoin(gateway.db, made.body.response.id, { currency: 'LTC', network: 'litecoin' });
  await gateway.db.query(`update orders set status = 'processed', received = amount where id = $1`, [invoiceOrder.id]);
  const [invoice] = await gateway.db.query<{ rate: string }>('select rate from invoices where id = $1', [
    made.body.response.id,
  ]);
  const owner = await cookieOf('owner');
  const at = `/dashboard/orders/${invoiceOrder.id}`;
  const html = unescape(
    await (await fetch(`${gateway.baseUrl}${at}`, { headers: { cookie: owner }, redirect: 'manual' })).text(),
  );
  // The three rates side by side, and the fee line (test mode: no estimate).
  expect(html).toContain("The invoice's rate");
  expect(html).toContain(`${invoice!.rate} USD`);
  expect(html).toContain('The current rate');
  expect(html).toContain('Your own rate (USD)');
  expect(html).toContain('Network fee estimate: none here');
  const hidden = formFields(html, 'Refund');
  const postHere = (fields: [string, string][]) => {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    return fetch(`${gateway.baseUrl}${at}`, {
      method: 'POST',
      body: form,
      headers: { cookie: owner },
      redirect: 'manual',
    });
  };
  const fiat = (rate: string, extra: [string, string][] = []) =>
    postHere([...hidden, ['amount', '10'], ['priceIn', 'fiat'], ['rate', rate], ...extra]);
  expect((await fiat('invoice', [['feeFromRefund', 'on']])).headers.get('location')).toContain('refund=made');
  expect((await fiat('custom', [['customRate', '125']])).headers.get('location')).toContain('refund=made');
  // A custom rate chosen without one, or not a decimal: refused, nothing made.
  expect((await fiat('custom')).headers.get('location')).toContain('refund=invalid');
  expect((await fiat('custom', [['customRate', '1e3']])).headers.get('location')).toContain('refund=invalid');
  const rows = await gateway.db.query<{
    amount: string;
    price_rate: string;
    price_rate_source: string;
    fee_from_refund: boolean;
  }>(
    'select amount, price_rate, price_rate_source, fee_from_refund from refunds where order_id = $1 order by created_at',
    [invoiceOrder.id],
  );
  expect(rows).toEqual([
    expect.objectContaining({ price_rate: invoice!.rate, price_rate_source: 'invoice', fee_from_refund: true }),
    // 10 USD at 125 USD per LTC: 0.08 LTC.
    { amount: '8000000', price_rate: '125', price_rate_source: 'custom', fee_from_refund: false },
  ]);
  expect((await audit('refund.create')).map((a) => a.detail)).toContainEqual(
    expect.objectContaining({
      price: { amount: '10', currency: 'USD', rate: '125', rateSource: 'custom' },
      feeFromRefund: false,
    }),
  );
  const [row] = await gateway.db.query<{ status: string }>('select status from orders where id = $1', [
    invoiceOrder.id,
  ]);
  expect(row!.status).toBe('processed');
});

it('offers a refund to the address an EVM payment came from, with the exchange warning; none on litecoin (decision 125)', async () => {
  const owner = await cookieOf('owner');
  // The litecoin order's page offers no such choice: the Bitcoin family has no sending address to refund.
  expect(await page(owner)).not.toContain('Refund to the address it came from');
  const sender = (await createOrder(gateway.db, merchant.test, { currency: 'ETH', network: 'ethereum', amount: '1' }))
    .address;
  const paid = await createOrder(gateway.db, merchant.test, { currency: 'ETH', network: 'ethereum', amount: '1' });
  await gateway.db.query(`update orders set status = 'processed', received = amount where id = $1`, [paid.id]);
  await gateway.db.query(
    `insert into payments (order_id, merchant_id, mode, address_id, network, currency, tx_hash, output_index,
       address, sender_address, amount, status, confirmations)
     values ($1, $2, 'test', $3, 'ethereum', 'ETH', $4, 0, $5, $6, 1000000000000000000, 'processed', 1)`,
    [paid.id, paid.merchant_id, paid.address_id, `0x${'ab'.repeat(32)}`, paid.address, sender],
  );
  const at = `/dashboard/orders/${paid.id}`;
  const html = unescape(await page(owner, at));
  expect(html).toMatch(new RegExp(`Refund to the address it came from \\((<[^>]*>)*${sender}(<[^>]*>)*\\)`));
  expect(html).toContain('Exchange deposit addresses often cannot receive refunds: if the payer paid from an exchange');
  const form = new FormData();
  const fields: [string, string][] = [...formFields(html, 'Refund'), ['amount', '0.25'], ['to', 'sender']];
  for (const [name, value] of fields) form.append(name, value);
  const made = await fetch(`${gateway.baseUrl}${at}`, {
    method: 'POST',
    body: form,
    headers: { cookie: owner },
    redirect: 'manual',
  });
  expect(made.headers.get('location')).toContain('refund=made-to-sender');
  expect(made.headers.get('set-cookie') ?? '').not.toContain('cg_refund_claim');
  const [refund] = await gateway.db.query<{ id: string; state: string; address: string; claim_delivery: string }>(
    'select id, state, address, claim_delivery from refunds where order_id = $1',
    [paid.id],
  );
  expect(refund).toMatchObject({ state: 'ready', address: sender, claim_delivery: 'sender' });
  expect((await audit('refund.create')).map((a) => a.detail)).toContainEqual(
    expect.objectContaining({ refundId: refund!.id, to: 'sender', amount: '0.25' }),
  );
});
