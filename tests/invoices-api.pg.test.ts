/**
 * Contract of the invoice operations over real HTTP (make-invoice, get-invoice, get-invoices,
 * price-rate, and available-currencies' priceUSD), with test keys and the fixed rate table
 * (lib/rates FIXED_USD_PRICES): every field, its JSON type, null when absent, the documented
 * conversion to the last unit, idempotency, and every refusal writing nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fillAddressPool } from '@/lib/addresses';
import { chooseCoin } from '@/lib/invoices';
import { network } from './support/chain';
import { countRows } from './support/database';
import { checkedCall as call } from './support/contract';
import { withTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let gateway: TestGateway;
let merchant: TestMerchant;
let other: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  other = await createTestMerchant(gateway.db);
  await fillAddressPool(gateway.db, network('tron'), 'test');
});

const INVOICE_FIELDS = [
  'id',
  'advancedBalanceId',
  'externalId',
  'status',
  'order',
  'orderId',
  'orderLink',
  'invoiceLink',
  'description',
  'currency',
  'amount',
  'receivedNetwork',
  'receivedCurrency',
  'receivedAmount',
  'receivedAmountInInvoiceCurrency',
  'rate',
  'includeFee',
  'additionalFees',
  'insurancePercent',
  'slippagePercent',
  'webhookURL',
  'returnUrl',
  'expiresAt',
  'createdAt',
  'currencies',
].sort();

/**
 * The documented conversion (docs/invoices.md, "Amounts, rates and rounding"): base units = ceil(price × (100 + insurance) / 100
 * × 10^decimals / rate), written out here with the fixed table's rates so the test does not reuse
 * the code it checks.
 */
function expected(priceCents: bigint, insuranceThousandths: bigint, decimals: number, usdPerCoin: bigint): string {
  const numerator = priceCents * (100_000n + insuranceThousandths) * 10n ** BigInt(decimals);
  const denominator = 100n * 100_000n * usdPerCoin;
  const units = (numerator + denominator - 1n) / denominator;
  const digits = units.toString().padStart(decimals + 1, '0');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${digits.slice(0, -decimals)}.${fraction}` : digits.slice(0, -decimals);
}

const amountOn = (
  invoice: { currencies: { currency: string; networks: { name: string; amount: string }[] }[] },
  currency: string,
  net: string,
) => invoice.currencies.find((c) => c.currency === currency)?.networks.find((n) => n.name === net)?.amount;

describe('make-invoice', () => {
  it('answers every field of the invoice object, null for the absent optional ones', async () => {
    const { status, body } = await call(
      gateway,
      'make-invoice',
      { currency: 'usd', amount: '10', lifetime: 30 },
      merchant.test,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    const invoice = body.response;
    expect(Object.keys(invoice).sort()).toEqual(INVOICE_FIELDS);
    expect(invoice).toMatchObject({
      externalId: null,
      status: 'CREATED',
      order: null,
      orderId: null,
      orderLink: null,
      description: null,
      currency: 'USD',
      amount: '10',
      receivedNetwork: null,
      receivedCurrency: null,
      receivedAmount: null,
      receivedAmountInInvoiceCurrency: null,
      rate: null,
      includeFee: false,
      additionalFees: null,
      insurancePercent: null,
      slippagePercent: null,
      webhookURL: null,
      returnUrl: null,
    });
    expect(invoice.id).toMatch(UUID);
    expect(invoice.invoiceLink).toBe(`${gateway.baseUrl}/invoice/${invoice.id}`);
    expect(invoice.createdAt).toMatch(ISO_MS);
    expect(invoice.expiresAt).toMatch(ISO_MS);
    expect(Date.parse(invoice.expiresAt) - Date.parse(invoice.createdAt)).toBe(30 * 60_000);
    const balances = await call(gateway, 'advanced-balances', {}, merchant.test);
    expect(invoice.advancedBalanceId).toBe(balances.body.response[0].advancedBalanceId);
    // currencies absent: every coin and network test keys can use, each with an amount.
    const available = (await call(gateway, 'available-currencies', {}, merchant.test)).body.response as {
      currency: string;
      networks: unknown[];
    }[];
    expect(invoice.currencies.map((c: { currency: string }) => c.currency).sort()).toEqual(
      available.map((c) => c.currency).sort(),
    );
    for (const coin of invoice.currencies) for (const n of coin.networks) expect(n.amount).toMatch(/^\d+(\.\d+)?$/);
  });

  it('converts a 73.50 USD price at the fixed table to the last unit of each coin, insurance added', async () => {
    const { body } = await call(
      gateway,
      'make-invoice',
      {
        currency: 'USD',
        amount: '73.50',
        lifetime: 60,
        insurancePercent: '1.5',
        slippagePercent: '0.5',
        includeFee: true,
        additionalFees: ['gas'],
        externalId: 'contract-7350',
        order: 'shop-7350',
        description: 'Two mugs',
        webhookURL: 'https://merchant.example/hooks/invoice',
        returnURL: 'https://merchant.example/back',
        currencies: [
          { currency: 'BTC', networks: ['bitcoin'] },
          { currency: 'ETH', networks: ['ethereum', 'base'] },
          { currency: 'USDT', networks: ['tron', 'bsc'] },
        ],
      },
      merchant.test,
    );
    const invoice = body.response;
    expect(invoice).toMatchObject({
      externalId: 'contract-7350',
      order: 'shop-7350',
      description: 'Two mugs',
      includeFee: true,
      additionalFees: ['gas'],
      insurancePercent: '1.5',
      slippagePercent: '0.5',
      webhookURL: 'https://merchant.example/hooks/invoice',
      returnUrl: 'https://merchant.example/back',
      currency: 'USD',
      amount: '73.5',
    });
    // 73.50 × 1.015 = 74.6025 USD.
    expect(amountOn(invoice, 'BTC', 'bitcoin')).toBe(expected(7350n, 1500n, 8, 60000n));
    expect(amountOn(invoice, 'BTC', 'bitcoin')).toBe('0.00124338');
    expect(amountOn(invoice, 'ETH', 'ethereum')).toBe(expected(7350n, 1500n, 18, 3000n));
    expect(amountOn(invoice, 'ETH', 'ethereum')).toBe('0.024867500000000000'.replace(/0+$/, ''));
    expect(amountOn(invoice, 'ETH', 'base')).toBe(amountOn(invoice, 'ETH', 'ethereum'));
    expect(amountOn(invoice, 'USDT', 'tron')).toBe('74.6025');
    expect(amountOn(invoice, 'USDT', 'bsc')).toBe('74.6025');
    expect(invoice.currencies.map((c: { currency: string }) => c.currency)).toEqual(['BTC', 'ETH', 'USDT']);
  });

  it('rounds a conversion that does not end at the last unit up, never down', async () => {
    const { body } = await call(
      gateway,
      'make-invoice',
      { currency: 'EUR', amount: '1', currencies: [{ currency: 'BTC' }] },
      merchant.test,
    );
    // 1 EUR = 1.08 USD; BTC in EUR = 60000 / 1.08 = 55555.555… (the rate, 18 decimals, half up).
    const rate = (await call(gateway, 'price-rate', { from: 'BTC', to: 'EUR' }, merchant.test)).body.response;
    expect(rate).toBe('55555.555555555555555556');
    // 1 / 55555.555555555555555556 BTC = 0.0000179999… → 1800 sat (not 1799).
    expect(amountOn(body.response, 'BTC', 'bitcoin')).toBe('0.000018');
  });

  it('is idempotent on externalId (then order): the same values answer the same invoice, other values 409, nothing written', async () => {
    const request = { currency: 'USD', amount: '5', externalId: 'idem-1' };
    const first = await call(gateway, 'make-invoice', request, merchant.test);
    const again = await call(gateway, 'make-invoice', request, merchant.test);
    expect(again.body.response.id).toBe(first.body.response.id);
    const before = await countRows(gateway.db);
    const conflict = await call(gateway, 'make-invoice', { ...request, amount: '6' }, merchant.test);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({ name: 'INVOICE_CONFLICT', details: [{ path: 'externalId' }] });
    expect(await countRows(gateway.db)).toEqual(before);
    // `order` is the key when externalId is absent; another merchant's key space is its own.
    const byOrder = await call(
      gateway,
      'make-invoice',
      { currency: 'USD', amount: '5', order: 'idem-order' },
      merchant.test,
    );
    expect(
      (await call(gateway, 'make-invoice', { currency: 'USD', amount: '5', order: 'idem-order' }, merchant.test)).body
        .response.id,
    ).toBe(byOrder.body.response.id);
    expect(
      (await call(gateway, 'make-invoice', { currency: 'USD', amount: '7', order: 'idem-order' }, other.test)).status,
    ).toBe(200);
  });

  it.each([
    [{ currency: 'USD' }, 'amount'],
    [{ currency: 'USD', amount: '0' }, 'amount'],
    [{ currency: 'USD', amount: '1.001' }, 'amount'],
    [{ currency: 'USD', amount: '-1' }, 'amount'],
    [{ currency: 'USD', amount: '1', lifetime: 0 }, 'lifetime'],
    [{ currency: 'USD', amount: '1', lifetime: 1.5 }, 'lifetime'],
    [{ currency: 'USD', amount: '1', insurancePercent: '100' }, 'insurancePercent'],
    [{ currency: 'USD', amount: '1', slippagePercent: 5 }, 'slippagePercent'],
    [{ currency: 'USD', amount: '1', webhookURL: 'ftp://x' }, 'webhookURL'],
    [{ currency: 'USD', amount: '1', currencies: 'BTC' }, 'currencies'],
    [{ currency: 'USD', amount: '1', additionalFees: 'gas' }, 'additionalFees'],
    [{ currency: 'USD', amount: '1', items: [{ name: ' ', quantity: 1, price: '1' }] }, 'items.0.name'],
    [{ currency: 'USD', amount: '1', items: [{ name: 'Mug', quantity: 1, price: '1.001' }] }, 'items.0.price'],
    // Lines that do not add up to the price: a receipt would list what the payer did not pay for.
    [{ currency: 'USD', amount: '1', items: [{ name: 'Mug', quantity: 2, price: '1' }] }, 'items'],
  ])('refuses %j with a VALIDATION_ERROR naming %s, writing nothing', async (request, path) => {
    const before = await countRows(gateway.db);
    const { status, body } = await call(gateway, 'make-invoice', request, merchant.test);
    expect(status).toBe(400);
    expect(body.error.name).toBe('VALIDATION_ERROR');
    expect(body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await countRows(gateway.db)).toEqual(before);
  });

  it('refuses a price currency or an offered coin it does not know with 422 UNSUPPORTED_CURRENCY, writing nothing', async () => {
    const before = await countRows(gateway.db);
    const unknown = await call(gateway, 'make-invoice', { currency: 'XYZ', amount: '1' }, merchant.test);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ name: 'UNSUPPORTED_CURRENCY', details: [{ path: 'currency' }] });
    const coin = await call(
      gateway,
      'make-invoice',
      { currency: 'USD', amount: '1', currencies: [{ currency: 'BTC', networks: ['tron'] }] },
      merchant.test,
    );
    expect(coin.status).toBe(422);
    expect(coin.body.error.details).toEqual([
      { path: 'currencies.0.networks.0', message: 'BTC on tron is not available for test keys' },
    ]);
    expect(await countRows(gateway.db)).toEqual(before);
  });
});

describe('get-invoice and get-invoices', () => {
  it('answers the invoice with its chosen coin, and 404 for another merchant or mode', async () => {
    const made = (
      await call(
        gateway,
        'make-invoice',
        { currency: 'USD', amount: '73.50', currencies: [{ currency: 'USDT', networks: ['tron'] }] },
        merchant.test,
      )
    ).body.response;
    const order = await chooseCoin(gateway.db, made.id, { currency: 'USDT', network: 'tron' });
    const { status, body } = await call(gateway, 'get-invoice', { invoiceId: made.id }, merchant.test);
    expect(status).toBe(200);
    expect(body.response).toMatchObject({
      id: made.id,
      status: 'INIT',
      orderId: order.id,
      orderLink: `${gateway.baseUrl}/pay/${order.id}`,
      receivedNetwork: 'tron',
      receivedCurrency: 'USDT',
      receivedAmount: '0',
      receivedAmountInInvoiceCurrency: '0',
      rate: '1',
      currencies: [{ currency: 'USDT', networks: [{ name: 'tron', amount: '73.5' }] }],
    });
    expect((await call(gateway, 'get-invoice', { invoiceId: made.id }, other.test)).status).toBe(404);
    expect((await call(gateway, 'get-invoice', { invoiceId: made.id }, merchant.live)).status).toBe(404);
    expect((await call(gateway, 'get-invoice', { invoiceId: 'not-a-uuid' }, merchant.test)).body.error.name).toBe(
      'NOT_FOUND',
    );
  });

  it("lists the caller's invoices newest first with total, status filter, limit and offset", async () => {
    const own = await createTestMerchant(gateway.db);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await call(gateway, 'make-invoice', { currency: 'GBP', amount: `${i + 1}` }, own.test)).body.response.id,
      );
    const all = (await call(gateway, 'get-invoices', {}, own.test)).body.response;
    expect(all.total).toBe(3);
    expect(all.invoices.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    expect(Object.keys(all.invoices[0]).sort()).toEqual(INVOICE_FIELDS);
    const page = (await call(gateway, 'get-invoices', { limit: 1, offset: 1 }, own.test)).body.response;
    expect(page).toMatchObject({ total: 3, invoices: [{ id: ids[1] }] });
    expect((await call(gateway, 'get-invoices', { status: ['PROCESSED'] }, own.test)).body.response).toEqual({
      total: 0,
      invoices: [],
    });
    expect((await call(gateway, 'get-invoices', { status: ['CREATED'], limit: 2 }, own.test)).body.response.total).toBe(
      3,
    );
    expect((await call(gateway, 'get-invoices', {}, own.live)).body.response).toEqual({ total: 0, invoices: [] });
    expect((await call(gateway, 'get-invoices', { status: ['paid'] }, own.test)).body.error.details[0].path).toBe(
      'status.0',
    );
  });
});

describe('price-rate and available-currencies', () => {
  it('answers the price of one `from` in `to` as a decimal string, via USD', async () => {
    const rate = (from: string, to: string) =>
      call(gateway, 'price-rate', { from, to }, merchant.test).then((a) => a.body.response);
    expect(await rate('BTC', 'USD')).toBe('60000');
    expect(await rate('eth', 'usdt')).toBe('3000');
    expect(await rate('USD', 'USD')).toBe('1');
    expect(await rate('EUR', 'USD')).toBe('1.08');
    expect(await rate('USD', 'BTC')).toBe('0.000016666666666667');
    const unknown = await call(gateway, 'price-rate', { from: 'BTC', to: 'XYZ' }, merchant.test);
    expect(unknown.status).toBe(422);
    expect((await call(gateway, 'price-rate', { from: 'BTC' }, merchant.test)).body.error.details[0].path).toBe('to');
  });

  it('answers priceUSD for each coin of available-currencies', async () => {
    const available = (await call(gateway, 'available-currencies', {}, merchant.test)).body.response as {
      currency: string;
      priceUSD: string;
    }[];
    expect(Object.fromEntries(available.map((c) => [c.currency, c.priceUSD]))).toMatchObject({
      BTC: '60000',
      ETH: '3000',
      USDT: '1',
      TRX: '0.25',
    });
  });
});
