/**
 * Plans on the dashboard (docs/collections.md), over real HTTP against the production build,
 * posting the pages' own forms as a browser without JavaScript does: "Prepare collection" on the
 * Funds page and "Prepare plan" on a ready refund, refused in test mode with lib/payouts' reason
 * (carried by a cookie, never the URL), or for a fee rate that is not one, and nothing written; a viewer sees no form and its direct
 * post is refused; a plan's page shows what it moves and hands out the plan file and the PSBT, to
 * the merchant's own users only; a plan's signed transaction pasted back on its page is taken for
 * an owner or admin (audited) and refused with its reason, writing nothing, and a viewer's post is
 * refused. Prepared plans on a real chain: tests/collections-litecoind.pg.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { faucetAddress } from '@/lib/chains/sandbox';
import { buildEvmCollectionPlan, evmRefundTransaction } from '@/lib/chains/evm/transactions';
import { buildTransaction, tronAddressOfBytes, tronRefundContract } from '@/lib/chains/tron/transactions';
import { evmRefundPlanSchema, tronRefundPlanSchema } from '@/lib/protocol';
import { broadcast, mine, testAccountXpub } from '@/lib/chains';
import { deriveAddress } from '@/lib/chains/derivation';
import { feePayerOf, prepareCollection, setTreasury } from '@/lib/payouts';
import { confirmClaim, makeRefund } from '@/lib/refunds';
import { createUser, openSession } from '@/lib/users';
import type { OrderRow } from '@/lib/orders/rows';
import { createOrder, network, sandboxChain, watchOnce } from './support/chain';
import { withTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { forgedSignature, TEST_PHRASE } from './support/sandbox-spends';
import { rootOfPhrase, signerConfigSchema, signPlan } from '@/scripts/signer/sign-plan';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

let order: OrderRow;
/** A version 0 PSBT of an empty transaction: the page reads each input's path from the plan's PSBT. */
const PSBT_HEX = '70736274ff01000a0200000000000000000000';
const PSBT = Buffer.from(PSBT_HEX, 'hex').toString('base64');
const TOKEN = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const EVM_TREASURY = '0x7e57000000000000000000000000000000c0ffee';
const GAS_PAYER = '0x1111111111111111111111111111111111111111';
/** An EIP-55 address (its checksum in the letters' case), as a wallet shows a gas payer. */
const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

beforeAll(async () => {
  // A paid sandbox order: its output is what the Funds page shows and a collection would spend.
  order = await createOrder(gateway.db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '2' });
  await broadcast(gateway.db, {
    network: network('litecoin'),
    to: order.address,
    tag: null,
    currency: 'LTC',
    amount: 200_000_000n,
  });
  await mine(gateway.db, network('litecoin'), 3);
  await watchOnce(gateway.db, sandboxChain(gateway.db, 'litecoin'));
});

async function cookieOf(role: 'owner' | 'admin' | 'viewer', merchantId = merchant.merchantId): Promise<string> {
  const { user } = await createUser(gateway.db, {
    merchant: merchantId,
    email: `${role}-${randomUUID()}@shop.example`,
    role,
    password: 'a long and unguessable dashboard password',
  });
  const session = await openSession(gateway.db, user.id, 'signed-in', {});
  return `cg_session=${session.token}`;
}

async function page(path: string, cookie: string): Promise<string> {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
  expect(response.status, path).toBe(200);
  return response.text();
}

const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of the page's form whose submit button says `label`, as a browser sends them. */
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

async function post(path: string, cookie: string, fields: [string, string][]) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return fetch(`${gateway.baseUrl}${path}`, { method: 'POST', body: form, headers: { cookie }, redirect: 'manual' });
}

async function count(table: string): Promise<number> {
  return (await gateway.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
}

/** The cookie a redirect set, as the browser sends it back. */
const setCookie = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0]!;

it('prepares a collection from the Funds page for an owner, and says why one is refused, writing nothing', async () => {
  const owner = await cookieOf('owner');
  const funds = await page('/dashboard/funds', owner);
  const label = 'Prepare collection of litecoin';
  const before = [await count('collection_plans'), await count('audit_log')];
  const refused = await post('/dashboard/funds', owner, [...formFields(funds, label), ['feeRate', '2']]);
  expect(refused.status).toBe(303);
  expect(refused.headers.get('location')).toMatch(/\/dashboard\/funds\?notice=plan-refused$/);
  // The reason travels in a short-lived cookie for the Funds page, never in the URL.
  expect(refused.headers.get('set-cookie')).toMatch(/cg_plan_refusal=.*Path=\/dashboard\/funds.*HttpOnly/i);
  const shown = await page('/dashboard/funds?notice=plan-refused', `${owner}; ${setCookie(refused)}`);
  expect(shown).toContain('The collection could not be prepared: nothing was changed. no treasury is set for litecoin');
  // A reason only the cookie gives: a crafted URL shows the fixed words alone.
  expect(await page('/dashboard/funds?notice=plan-refused', owner)).not.toContain('no treasury');
  const invalid = await post('/dashboard/funds', owner, [...formFields(funds, label), ['feeRate', '2.5']]);
  expect(invalid.headers.get('location')).toMatch(/notice=plan-invalid$/);
  expect([await count('collection_plans'), await count('audit_log')]).toEqual(before);
  // "Check against the node" is a plain GET: in test mode there is no node, and the page says so.
  expect(funds).toContain('Check against the node');
  expect(await page('/dashboard/funds?check=node', owner)).toContain(
    'litecoin LTC: not checked (test mode: the sandbox ledger is what the watcher reads, there is no node to ask)',
  );
});

it("shows a viewer no prepare button and refuses the viewer's own post", async () => {
  const owner = await cookieOf('owner');
  const fields = formFields(await page('/dashboard/funds', owner), 'Prepare collection of litecoin');
  const viewer = await cookieOf('viewer');
  expect(await page('/dashboard/funds', viewer)).not.toContain('Prepare collection');
  const refused = await post('/dashboard/funds', viewer, [...fields, ['feeRate', '']]);
  expect(refused.headers.get('location')).toMatch(/\/dashboard\/forbidden$/);
  expect(refused.headers.get('set-cookie') ?? '').not.toContain('cg_plan_refusal');
});

it('offers "Prepare plan" on a ready refund and says why it cannot be prepared', async () => {
  const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
  await gateway.db.query(`update orders set status = 'processed', received = amount where id = $1`, [order.id]);
  const made = await makeRefund(gateway.db, scope, {
    target: { kind: 'order', id: order.id },
    amount: 50_000_000n,
    createdBy: 'user:test',
    now: new Date(),
  });
  const token = made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1);
  await confirmClaim(gateway.db, token, { address: faucetAddress(network('litecoin')), tag: '' }, new Date());
  const owner = await cookieOf('owner');
  const path = `/dashboard/orders/${order.id}`;
  const fields = formFields(await page(path, owner), 'Prepare plan');
  const refused = await post(path, owner, [...fields, ['feeFromRefund', 'on']]);
  expect(refused.headers.get('location')).toMatch(/refund=plan$/);
  const shown = await page(`${path}?refund=plan`, `${owner}; ${setCookie(refused)}`);
  expect(shown).toContain('The plan could not be prepared: no treasury is set for litecoin');
  // A fee rate that is not a whole number of base units per vbyte: refused before anything is asked.
  const invalid = await post(path, owner, [...fields, ['feeRate', '2.5']]);
  expect(invalid.headers.get('location')).toMatch(/refund=fee-rate$/);
  expect(await page(`${path}?refund=fee-rate`, owner)).toContain(
    'The fee rate is a whole number of base units per vbyte',
  );
  expect(await count('collection_plans')).toBe(0);
  const viewer = await cookieOf('viewer');
  expect(await page(path, viewer)).not.toContain('Prepare plan');
});

it("shows a plan with its files to the merchant's users, and to nobody else", async () => {
  const planId = randomUUID();
  await gateway.db.query(
    `insert into collection_plans (id, merchant_id, mode, network, currency, treasury, master_fingerprint, fee_rate, total, fee, sent, psbt)
     values ($1, $2, 'test', 'litecoin', 'LTC', $3, '73c5da0a', 2, 200000000, 282, 199999718, $4)`,
    [planId, merchant.merchantId, faucetAddress(network('litecoin')), PSBT],
  );
  const viewer = await cookieOf('viewer');
  const shown = await page(`/dashboard/funds/plans/${planId}?notice=prepared`, viewer);
  expect(shown).toContain('Collection plan');
  expect(shown).toContain('Plan prepared: download it and sign it on your own machine.');
  expect(shown).toContain(faucetAddress(network('litecoin')));
  expect(await page('/dashboard/funds', viewer)).toContain(`/dashboard/funds/plans/${planId}`);

  const file = `${gateway.baseUrl}/dashboard/funds/plans/${planId}/file`;
  const json = await fetch(`${file}?format=plan`, { headers: { cookie: viewer } });
  expect(json.headers.get('content-disposition')).toBe(`attachment; filename="plan-${planId}.json"`);
  expect(json.headers.get('cache-control')).toBe('no-store');
  expect(await json.json()).toMatchObject({ planId, kind: 'collection', psbt: PSBT, total: '2', fee: '0.00000282' });
  const psbt = await fetch(`${file}?format=psbt`, { headers: { cookie: viewer } });
  expect(Buffer.from(await psbt.arrayBuffer()).toString('hex')).toBe(PSBT_HEX);
  expect((await fetch(`${file}?format=xml`, { headers: { cookie: viewer } })).status).toBe(400);

  // Another merchant's user, a stranger and a malformed id: not found, never a 500.
  const other = await createTestMerchant(gateway.db);
  const stranger = await cookieOf('owner', other.merchantId);
  expect((await fetch(`${file}?format=plan`, { headers: { cookie: stranger } })).status).toBe(404);
  expect(
    (await fetch(`${gateway.baseUrl}/dashboard/funds/plans/${planId}`, { headers: { cookie: stranger } })).status,
  ).toBe(404);
  expect((await fetch(`${file}?format=plan`)).status).toBe(401);
  expect(
    (await fetch(`${gateway.baseUrl}/dashboard/funds/plans/not-a-plan`, { headers: { cookie: viewer } })).status,
  ).toBe(404);

  // An EVM plan (docs/decisions/093): what the gas payer may spend, and the plan file only, no PSBT.
  const evm = buildEvmCollectionPlan({
    planId: randomUUID(),
    mode: 'test',
    network: { name: 'ethereum', chainId: 1, nativeTicker: 'ETH' },
    tokens: [{ ticker: 'USDT', contract: TOKEN, decimals: 6 }],
    treasury: EVM_TREASURY,
    gasPayer: { address: GAS_PAYER, path: "m/44'/60'/1'/0/0", nonce: 0 },
    deposits: [
      {
        address: '0x0000000000000000000000000000000000000001',
        path: "m/44'/60'/0'/0/1",
        personal: false,
        nonce: 0,
        native: 0n,
        tokens: new Map([[TOKEN, 5_000_000n]]),
      },
    ],
    fees: { maxFeePerGas: 1_000_000_000n, maxPriorityFeePerGas: 1n },
    blockGasLimit: 30_000_000n,
    method: 'sweep',
    createdAt: new Date().toISOString(),
  })!;
  await gateway.db.query(
    `insert into collection_plans (id, merchant_id, mode, network, currency, treasury, format, fee_rate, total, fee, sent, body)
     values ($1, $2, 'test', 'ethereum', 'USDT', $3, 'evm', 1000000000, 5000000, 0, 5000000, $4::jsonb)`,
    [evm.planId, merchant.merchantId, evm.treasury, JSON.stringify(evm)],
  );
  const evmShown = unescape(await page(`/dashboard/funds/plans/${evm.planId}`, viewer));
  expect(evmShown).toContain('1 deposit address');
  expect(evmShown).toContain('Gas payer spends at most');
  expect(evmShown).toContain(GAS_PAYER);
  expect(evmShown).not.toContain('.psbt');
  const evmFile = `${gateway.baseUrl}/dashboard/funds/plans/${evm.planId}/file`;
  const evmJson = await fetch(`${evmFile}?format=plan`, { headers: { cookie: viewer } });
  expect(await evmJson.json()).toEqual({ ...evm, status: 'prepared', reason: null });
  expect((await fetch(`${evmFile}?format=psbt`, { headers: { cookie: viewer } })).status).toBe(400);

  // An EVM refund plan (docs/decisions/112): the refund from the treasury, its gas at most, the plan file only.
  const [{ id: refundId }] = (await gateway.db.query<{ id: string }>(
    'select id from refunds where merchant_id = $1 limit 1',
    [merchant.merchantId],
  )) as [{ id: string }];
  const payer = '0x00000000000000000000000000000000000A11cE';
  const refundPlan = {
    planId: randomUUID(),
    kind: 'refund',
    format: 'evm',
    mode: 'test',
    network: 'ethereum',
    chainId: 1,
    currency: 'ETH',
    token: null,
    treasury: EVM_TREASURY,
    transaction: evmRefundTransaction(
      { chainId: 1, treasury: EVM_TREASURY, destination: payer, token: null, amount: 2n * 10n ** 17n },
      3,
      { maxFeePerGas: 1_000_000_000n, maxPriorityFeePerGas: 1n },
      21_000n,
    ),
    refund: {
      refundId,
      orderId: order.id,
      invoiceId: null,
      depositId: null,
      amount: '0.2',
      pays: '0.2',
      feeFromRefund: false,
      destination: payer,
      addressConfirmedAt: new Date().toISOString(),
      payment: { transfers: [{ txHash: `0x${'ab'.repeat(32)}`, address: payer, path: "m/44'/60'/0'/0/1" }] },
    },
    createdAt: new Date().toISOString(),
  };
  await gateway.db.query(
    `insert into collection_plans (id, merchant_id, mode, network, currency, treasury, format, kind, refund_id, refund, fee_rate, total, fee, sent, body)
     values ($1, $2, 'test', 'ethereum', 'ETH', $3, 'evm', 'refund', $4, $5::jsonb, 1000000000, 200000000000000000, 0, 200000000000000000, $6::jsonb)`,
    [
      refundPlan.planId,
      merchant.merchantId,
      EVM_TREASURY,
      refundId,
      JSON.stringify(refundPlan.refund),
      JSON.stringify(refundPlan),
    ],
  );
  const refundShown = unescape(await page(`/dashboard/funds/plans/${refundPlan.planId}`, viewer));
  expect(refundShown).toContain('Refund plan');
  expect(refundShown).toContain(payer);
  expect(refundShown).toContain('From the treasury');
  expect(refundShown).toContain('0.000021');
  expect(refundShown).not.toContain('.psbt');
  const refundFile = await fetch(`${gateway.baseUrl}/dashboard/funds/plans/${refundPlan.planId}/file?format=plan`, {
    headers: { cookie: viewer },
  });
  expect(evmRefundPlanSchema.parse(await refundFile.json())).toEqual({
    ...refundPlan,
    status: 'prepared',
    txid: null,
    reason: null,
    acceptedAt: null,
  });

  // A Tron refund plan (docs/decisions/115), once the EVM one is stale: the refund, the TRX its fee burns, its id;
  // its payer bears the fee (decision 120): 4 TRX less the 1.2 it burns.
  await gateway.db.query(`update collection_plans set status = 'stale' where id = $1`, [refundPlan.planId]);
  const tronPayer = tronAddressOfBytes(Uint8Array.of(0x41, ...new Uint8Array(20).fill(0xa1)));
  const tronTreasury = tronAddressOfBytes(Uint8Array.of(0x41, ...new Uint8Array(20).fill(7)));
  const ref = { height: 10, id: 'cd'.repeat(32), timestamp: Date.now() };
  const built = buildTransaction(
    ref,
    tronRefundContract({ treasury: tronTreasury, destination: tronPayer, token: null, amount: 2_800_000n }),
    { expiration: ref.timestamp + 3_600_000, timestamp: ref.timestamp },
  );
  const tronPlan = {
    ...refundPlan,
    planId: randomUUID(),
    format: 'tron',
    network: 'tron',
    chain: 'mainnet',
    currency: 'TRX',
    treasury: tronTreasury,
    transaction: {
      ...built,
      feeLimit: '0',
      burn: '1200000',
      expiresAt: new Date(ref.timestamp + 3_600_000).toISOString(),
    },
    refund: {
      ...refundPlan.refund,
      amount: '4',
      pays: '2.8',
      feeFromRefund: true,
      destination: tronPayer,
      payment: { transfers: [{ txHash: 'ab'.repeat(32), address: tronPayer, path: "m/44'/195'/0'/0/1" }] },
    },
  };
  delete (tronPlan as { chainId?: number }).chainId;
  await gateway.db.query(
    `insert into collection_plans (id, merchant_id, mode, network, currency, treasury, format, kind, refund_id, refund, fee_rate, total, fee, sent, txid, body)
     values ($1, $2, 'test', 'tron', 'TRX', $3, 'tron', 'refund', $4, $5::jsonb, 0, 4000000, 1200000, 2800000, $6, $7::jsonb)`,
    [
      tronPlan.planId,
      merchant.merchantId,
      tronTreasury,
      refundId,
      JSON.stringify(tronPlan.refund),
      built.txID,
      JSON.stringify(tronPlan),
    ],
  );
  const tronShown = unescape(await page(`/dashboard/funds/plans/${tronPlan.planId}`, viewer));
  expect(tronShown).toContain('Refund plan');
  expect(tronShown).toContain(tronPayer);
  expect(tronShown).toContain('Fee burned, about');
  // The order page says what the refund's newest plan pays when it takes the fee from the refund.
  expect(unescape(await page(`/dashboard/orders/${order.id}`, viewer))).toMatch(
    /data-testid="plan-pays">pays .*2\.8.*, the network fee taken from the refund/,
  );
  expect(tronShown).toMatch(/2\.8\s*TRX.*the refund of.*4\s*TRX.*less its network fee, which the payer bears/s);
  expect(tronShown).toContain(built.txID);
  const tronFile = await fetch(`${gateway.baseUrl}/dashboard/funds/plans/${tronPlan.planId}/file?format=plan`, {
    headers: { cookie: viewer },
  });
  expect(tronRefundPlanSchema.parse(await tronFile.json())).toEqual({
    ...tronPlan,
    status: 'prepared',
    txid: built.txID,
    reason: null,
    acceptedAt: null,
  });
  // The gas a fund left (docs/decisions/113): a transfer in from that plan's gas payer is no payment
  // but a Funds line of its own; test mode has no node to read its balance, so the line says where.
  const funded = await createOrder(gateway.db, merchant.test, { currency: 'USDT', network: 'ethereum', amount: '1' });
  await broadcast(gateway.db, {
    network: network('ethereum'),
    to: funded.address,
    currency: 'ETH',
    amount: 3_000_000_000_000_000n,
    from: GAS_PAYER,
  });
  await mine(gateway.db, network('ethereum'), 3);
  await watchOnce(gateway.db, sandboxChain(gateway.db, 'ethereum'));
  const funds = unescape(await page('/dashboard/funds', viewer));
  expect(funds).toContain('Gas left on deposit addresses');
  expect(funds).toContain(
    'ethereum: gas left on 1 address by fund-then-transfer collections (no node answered for their balances)',
  );
});

it('keeps a fee payer per network for an admin, audited; refuses a bad checksum and a viewer, writing nothing', async () => {
  const admin = await cookieOf('admin');
  const funds = await page('/dashboard/funds', admin);
  expect(funds).toContain('Fee payers');
  const fields = formFields(funds, 'Set fee payer');
  const keep = (address: string, cookie = admin) =>
    post('/dashboard/funds', cookie, [
      ...fields,
      ['network', 'ethereum'],
      ['address', address],
      ['path', "m/44'/60'/1'/0/0"],
    ]);
  const before = [await count('fee_payers'), await count('audit_log')];
  // One letter's case changed: the EIP-55 checksum no longer holds.
  const broken = await keep(CHECKSUMMED.replace('E0F', 'e0F'));
  expect(broken.headers.get('location')).toMatch(/\/dashboard\/funds\?notice=fee-payer-invalid$/);
  const viewer = await keep(CHECKSUMMED, await cookieOf('viewer'));
  expect(viewer.headers.get('location')).toMatch(/\/dashboard\/forbidden$/);
  expect([await count('fee_payers'), await count('audit_log')]).toEqual(before);

  const kept = await keep(CHECKSUMMED);
  expect(kept.headers.get('location')).toMatch(/\/dashboard\/funds\?notice=fee-payer$/);
  expect(await feePayerOf(gateway.db, merchant.merchantId, 'ethereum', 'test')).toEqual({
    address: CHECKSUMMED,
    path: "m/44'/60'/1'/0/0",
  });
  const [entry] = await gateway.db.query<{ detail: Record<string, unknown> }>(
    `select detail from audit_log where merchant_id = $1 and action = 'fee-payer.set'`,
    [merchant.merchantId],
  );
  expect(entry?.detail).toMatchObject({ network: 'ethereum', mode: 'test', address: CHECKSUMMED });
  // The address in its own element, then its path.
  expect(unescape(await page('/dashboard/funds?notice=fee-payer', admin))).toMatch(
    new RegExp(`${CHECKSUMMED}</\\w+>(<!-- -->)? \\(m/44'/60'/1'/0/0\\)`),
  );
});

it("takes a plan's signed transaction pasted on its page, audited; says why one is refused; refuses a viewer", async () => {
  const shop = await createTestMerchant(gateway.db);
  const litecoin = network('litecoin');
  const treasury = deriveAddress(litecoin, testAccountXpub(litecoin), 90_000);
  await setTreasury(gateway.db, { merchantId: shop.merchantId, network: 'litecoin', mode: 'test', address: treasury });
  const paid = await createOrder(gateway.db, shop.test, { currency: 'LTC', network: 'litecoin', amount: '0.4' });
  await broadcast(gateway.db, { network: litecoin, to: paid.address, tag: null, currency: 'LTC', amount: 40_000_000n });
  await mine(gateway.db, litecoin, 3);
  await watchOnce(gateway.db, sandboxChain(gateway.db, 'litecoin'));
  const { planId } = await prepareCollection(gateway.db, {
    merchantId: shop.merchantId,
    mode: 'test',
    network: 'litecoin',
  });
  const path = `/dashboard/funds/plans/${planId}`;
  const admin = await cookieOf('admin', shop.merchantId);
  // Signed as the merchant signs it: the plan file from this page, `npm run signer`'s own function, the public test seed.
  const planFile = await (
    await fetch(`${gateway.baseUrl}${path}/file?format=plan`, { headers: { cookie: admin } })
  ).text();
  const config = signerConfigSchema.parse({ network: 'litecoin', treasury, maxFee: '0.001' });
  const { signed } = await signPlan(planFile, config, rootOfPhrase(TEST_PHRASE), { confirm: async () => true });
  const fields = formFields(await page(path, admin), 'Submit');
  const written = async () => [
    await count('audit_log'),
    await count('sandbox_transactions'),
    await count('collection_plans where txid is not null'),
  ];
  const before = await written();

  const viewer = await cookieOf('viewer', shop.merchantId);
  expect(await page(path, viewer)).not.toContain('Submit the signed transaction');
  const forbidden = await post(path, viewer, [...fields, ['transaction', signed.rawTx]]);
  expect(forbidden.headers.get('location')).toMatch(/\/dashboard\/forbidden$/);

  const owner = await cookieOf('owner', shop.merchantId);
  const invalid = await post(path, owner, [...fields, ['transaction', 'not a transaction']]);
  expect(invalid.headers.get('location')).toMatch(/\?notice=submit-invalid#submit$/);
  expect(await page(`${path}?notice=submit-invalid`, owner)).toContain('Paste the signed transaction as hex');
  const phrase = await post(path, owner, [...fields, ['transaction', TEST_PHRASE]]);
  expect(phrase.headers.get('location')).toMatch(/\?notice=submit-key-material#submit$/);
  const refused = await post(path, owner, [...fields, ['transaction', forgedSignature(signed.rawTx)]]);
  expect(refused.headers.get('location')).toMatch(/\?notice=submit-refused#submit$/);
  expect(unescape(await page(`${path}?notice=submit-refused`, `${owner}; ${setCookie(refused)}`))).toContain(
    "The signed transaction was not taken: nothing was recorded. the sandbox's litecoin refused the transaction: input 0: its signature does not verify",
  );
  expect(await written()).toEqual(before);

  // Pasted as a wrapped, upper-case hex dump: the same transaction.
  const pasted = signed.rawTx.toUpperCase().replace(/(.{64})/g, '$1\n');
  const taken = await post(path, admin, [...fields, ['transaction', pasted]]);
  expect(taken.headers.get('location')).toMatch(/\?notice=submitted$/);
  const shown = await page(`${path}?notice=submitted`, admin);
  expect(shown).toContain(signed.txid);
  expect(shown).toContain('taken by the node: waiting to be mined');
  expect(shown).not.toContain('Submit the signed transaction');
  const [entry] = await gateway.db.query<{ actor: string; detail: unknown }>(
    `select actor, detail from audit_log where merchant_id = $1 and action = 'plan.submit'`,
    [shop.merchantId],
  );
  expect(entry).toEqual({ actor: expect.stringMatching(/^admin-/), detail: { planId, mode: 'test' } });
});
