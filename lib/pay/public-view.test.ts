import { describe, expect, it } from 'vitest';
import { buildPublicView, type PublicInvoiceRow, type PublicOrderRow, type PublicTransferRow } from './public-view';

const LTC = 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh';
const XRP = 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3';
const ETH = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const expiresAt = new Date('2030-01-01T12:30:00.000Z');
const now = new Date('2030-01-01T12:00:00.000Z');

function order(overrides: Partial<PublicOrderRow> = {}): PublicOrderRow {
  return {
    id: '6f1c1f7e-8a3b-4a53-9d55-0a4f7d1a2b3c',
    mode: 'test',
    status: 'pending',
    currency: 'LTC',
    network: 'litecoin',
    amount: '25000000', // 0.25 LTC
    received: '0',
    address: LTC,
    tag: null,
    description: 'Two books',
    return_url: 'https://shop.example/thanks',
    expires_at: expiresAt,
    merchant_name: 'Book shop',
    tip_height: 100,
    invoice: null,
    remainder_of: null,
    ...overrides,
  };
}

function transfer(overrides: Partial<PublicTransferRow> = {}): PublicTransferRow {
  return {
    tx_hash: 'a'.repeat(64),
    currency: 'LTC',
    amount: '10000000',
    block_height: 100,
    first_seen_at: new Date('2030-01-01T12:05:00.000Z'),
    dropped: false,
    payment_status: 'pending',
    ...overrides,
  };
}

const build = (o: PublicOrderRow, t: PublicTransferRow[] = [], required = 6) =>
  buildPublicView(o, t, { requiredConfirmations: required, blockSeconds: 150, now });

describe('buildPublicView', () => {
  it('a fresh order: awaiting, the whole amount left, the BIP21 URI for it, names from the catalog', () => {
    const view = build(order());
    expect(view).toMatchObject({
      screen: 'awaiting',
      status: 'pending',
      test: true,
      amount: '0.25',
      received: '0',
      remaining: '0.25',
      currency: 'LTC',
      currencyName: 'Litecoin',
      network: 'litecoin',
      networkName: 'Litecoin',
      tokenStandard: null,
      blockSeconds: 150,
      merchantName: 'Book shop',
      description: 'Two books',
      returnUrl: 'https://shop.example/thanks',
      expiresAt: '2030-01-01T12:30:00.000Z',
      serverTime: '2030-01-01T12:00:00.000Z',
      requiredConfirmations: 6,
      payments: [],
      otherTransfers: [],
    });
    expect(view.walletUri).toBe(`litecoin:${LTC}?amount=0.25`);
  });

  it('carries no field a shopper must not see', () => {
    const view = build(order());
    expect(Object.keys(view).sort()).toEqual(
      [
        'address',
        'amount',
        'blockSeconds',
        'currency',
        'currencyName',
        'description',
        'expiresAt',
        'merchantName',
        'network',
        'networkName',
        'invoice',
        'orderId',
        'otherTransfers',
        'payments',
        'received',
        'remaining',
        // The payer's refund choice (docs/decisions/088): its kind and amount, from the order's own facts.
        'refundOffer',
        // "Pay the rest" (docs/decisions/069): order ids the payer holds, amounts and a flag.
        'remainderOf',
        'requiredConfirmations',
        'rest',
        'returnUrl',
        'screen',
        'serverTime',
        'status',
        'tag',
        'test',
        'tokenStandard',
        'walletUri',
      ].sort(),
    );
  });

  it('a payment waiting for confirmations: detected, k/n from the cursor, and it is no longer asked for', () => {
    // Mined at 99, tip 100: 2 confirmations of 6.
    const view = build(order(), [transfer({ block_height: 99 })]);
    expect(view.screen).toBe('detected');
    expect(view.payments).toEqual([{ txid: 'a'.repeat(64), amount: '0.1', status: 'detected', confirmations: 2 }]);
    expect(view.remaining).toBe('0.15');
    expect(view.walletUri).toBe(`litecoin:${LTC}?amount=0.15`);
  });

  it('a mempool payment has 0 confirmations; confirmations never exceed the requirement', () => {
    expect(build(order(), [transfer({ block_height: null })]).payments[0]!.confirmations).toBe(0);
    expect(
      build(order({ tip_height: 500 }), [transfer({ block_height: 10, payment_status: 'processed' })]).payments[0]!
        .confirmations,
    ).toBe(6);
    // Before the watcher's first step there is no cursor.
    expect(build(order({ tip_height: null }), [transfer()]).payments[0]!.confirmations).toBe(0);
  });

  it('a counted payment below the amount: partially paid with received and remaining', () => {
    const view = build(order({ received: '10000000' }), [transfer({ payment_status: 'processed', block_height: 90 })]);
    expect(view.screen).toBe('partially-paid');
    expect(view.received).toBe('0.1');
    expect(view.remaining).toBe('0.15');
    expect(view.payments[0]!.status).toBe('confirmed');
  });

  it('paid, overpaid, expired, underpaid and error screens follow the status', () => {
    expect(build(order({ status: 'processed', received: '25000000' })).screen).toBe('paid');
    expect(build(order({ status: 'overpaid', received: '27500000' })).screen).toBe('overpaid');
    expect(build(order({ status: 'expired' })).screen).toBe('expired');
    expect(build(order({ status: 'partial', received: '1' })).screen).toBe('underpaid');
    expect(build(order({ status: 'error' })).screen).toBe('error');
    expect(build(order({ status: 'processed', received: '25000000' })).remaining).toBe('0');
  });

  it('a transfer after the deadline: paid late, listed with its txid', () => {
    const late = transfer({
      payment_status: null,
      first_seen_at: new Date('2030-01-01T13:00:00.000Z'),
      tx_hash: 'b'.repeat(64),
    });
    const view = build(order({ status: 'expired' }), [late]);
    expect(view.screen).toBe('paid-late');
    expect(view.payments).toEqual([]);
    expect(view.otherTransfers).toEqual([
      { txid: 'b'.repeat(64), currency: 'LTC', amount: '0.1', confirmations: 1, late: true },
    ]);
  });

  it('an expired order counts a same-currency orphan as late even when the mempool saw it before the deadline (chain time decided)', () => {
    const view = build(order({ status: 'expired' }), [transfer({ payment_status: null })]);
    expect(view.screen).toBe('paid-late');
  });

  // Each row states the expected `late` on its own: same currency as the ETH order or not, first
  // seen before, exactly at or after the deadline (12:30:00.000).
  it.each([
    ['pending', 'ETH', '12:30:00.001', true],
    ['pending', 'USDT', '12:30:00.001', false],
    ['processed', 'ETH', '12:29:00.000', false],
    ['processed', 'ETH', '12:30:00.000', false],
    ['processed', 'ETH', '12:30:00.001', true],
    ['overpaid', 'ETH', '12:31:00.000', true],
    ['error', 'ETH', '12:31:00.000', true],
    ['error', 'ETH', '12:29:00.000', false],
    ['expired', 'ETH', '12:29:00.000', true],
    ['partial', 'ETH', '12:29:00.000', true],
    ['expired', 'USDT', '12:31:00.000', false],
    ['partial', 'USDT', '12:29:00.000', false],
  ] as const)('a %s order, a %s transfer first seen at %s: late is %s', (status, currency, seenAt, late) => {
    const eth = {
      ...order({ status }),
      currency: 'ETH',
      network: 'ethereum',
      address: ETH,
      amount: '1000000000000000000',
    };
    const orphan = transfer({
      currency,
      amount: '1',
      payment_status: null,
      first_seen_at: new Date(`2030-01-01T${seenAt}Z`),
    });
    expect(build(eth, [orphan]).otherTransfers.map((t) => t.late)).toEqual([late]);
  });

  it('other transfers that are not late: another currency, an extra payment after a paid order; dropped orphans are left out', () => {
    const eth = { ...order(), currency: 'USDT', network: 'ethereum', address: ETH, amount: '10500000' };
    const view = build(eth, [
      transfer({ currency: 'ETH', amount: '1000000000000000000', payment_status: null, tx_hash: 'c'.repeat(64) }),
      transfer({ currency: 'USDT', amount: '1', payment_status: null, dropped: true, tx_hash: 'd'.repeat(64) }),
    ]);
    expect(view.screen).toBe('awaiting');
    expect(view.otherTransfers).toEqual([
      { txid: 'c'.repeat(64), currency: 'ETH', amount: '1', confirmations: 1, late: false },
    ]);
    expect(view.walletUri).toBe(
      `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${ETH}&uint256=10500000`,
    );
    // A token carries its standard; the block time is the caller's (lib/chains blockSecondsOf).
    expect([view.tokenStandard, view.blockSeconds]).toEqual(['ERC-20', 150]);
    const paid = build(order({ status: 'processed', received: '25000000' }), [transfer({ payment_status: null })]);
    expect(paid.screen).toBe('paid');
    expect(paid.otherTransfers[0]!.late).toBe(false);
  });

  it('a tag network: the tag is in the view, the URI is the address alone', () => {
    const view = build({
      ...order(),
      currency: 'XRP',
      network: 'ripple',
      address: XRP,
      tag: '3735928559',
      amount: '1500000',
    });
    expect(view.tag).toBe('3735928559');
    expect(view.walletUri).toBe(XRP);
    expect(view.networkName).toBe('XRP Ledger');
    expect(view.amount).toBe('1.5');
  });

  it('solana: the reference is in the transfer request only, never shown as a tag to type', () => {
    const wallet = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk';
    const reference = '11111111111111111111111111111112';
    const view = build({
      ...order(),
      currency: 'USDC',
      network: 'solana',
      address: wallet,
      tag: reference,
      amount: '12500000',
      description: 'Order 7',
    });
    expect(view.tag).toBeNull();
    expect(view.walletUri).toBe(
      `solana:${wallet}?amount=12.5&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v&reference=${reference}` +
        `&label=${encodeURIComponent(view.merchantName)}&message=Order%207`,
    );
  });

  it('18-decimal amounts stay exact (no floats)', () => {
    const view = build(
      { ...order(), currency: 'ETH', network: 'ethereum', address: ETH, amount: '1000000000000000001', received: '1' },
      [transfer({ currency: 'ETH', amount: '1', payment_status: 'processed' })],
    );
    expect(view.amount).toBe('1.000000000000000001');
    expect(view.remaining).toBe('1');
    expect(view.walletUri).toBe(`ethereum:${ETH}@1?value=1000000000000000000`);
  });

  it('a live order is not a test order', () => {
    expect(build(order({ mode: 'live' })).test).toBe(false);
  });
});

describe('buildPublicView: an order of an invoice', () => {
  const ORDER_ID = '6f1c1f7e-8a3b-4a53-9d55-0a4f7d1a2b3c';
  const invoice = (overrides: Partial<PublicInvoiceRow> = {}): PublicInvoiceRow => ({
    id: '0b7e4c1a-52f4-4f0e-9a55-3c1f0e2d9b71',
    currency: 'USD',
    amount: '7350', // 73.50 USD, 2 decimals
    price_decimals: 2,
    status: 'INIT',
    order_id: ORDER_ID,
    expires_at: new Date('2030-01-01T13:00:00.000Z'),
    ...overrides,
  });
  const usdt = (i: PublicInvoiceRow) => order({ currency: 'USDT', network: 'tron', amount: '73500000', invoice: i });

  it('an ordinary order has no invoice', () => {
    expect(build(order()).invoice).toBeNull();
  });

  it('the price from base units and price decimals, and the coin may change while nothing was sent', () => {
    expect(build(usdt(invoice())).invoice).toEqual({
      invoiceId: '0b7e4c1a-52f4-4f0e-9a55-3c1f0e2d9b71',
      currency: 'USD',
      amount: '73.5',
      canChangeCoin: true,
    });
    expect(build(usdt(invoice({ status: 'CREATED' }))).invoice!.canChangeCoin).toBe(true);
    // A price in a coin keeps its digits exactly.
    const inEth = build(usdt(invoice({ currency: 'ETH', amount: '24500000000000001', price_decimals: 18 }))).invoice!;
    expect(inEth.amount).toBe('0.024500000000000001');
  });

  it("the coin may not change once a transfer was seen, after another choice, a final status, or the invoice's time", () => {
    const changeable = (i: PublicInvoiceRow, transfers: PublicTransferRow[] = []) =>
      build(usdt(i), transfers).invoice!.canChangeCoin;
    expect(changeable(invoice(), [transfer({ currency: 'USDT', amount: '1000000' })])).toBe(false);
    // An unconfirmed transfer the chain dropped is as if never sent; another currency's transfer counts as seen.
    expect(changeable(invoice(), [transfer({ currency: 'USDT', dropped: true, payment_status: null })])).toBe(true);
    expect(changeable(invoice(), [transfer({ currency: 'TRX', payment_status: null })])).toBe(false);
    expect(changeable(invoice({ order_id: '11111111-2222-4333-8444-555555555555' }))).toBe(false);
    for (const status of ['PENDING', 'PROCESSED', 'OVERPAID', 'PARTIAL', 'EXPIRED', 'REJECTED', 'ERROR'] as const) {
      expect(changeable(invoice({ status })), status).toBe(false);
    }
    expect(changeable(invoice({ expires_at: now }))).toBe(false);
    expect(changeable(invoice({ expires_at: new Date(now.getTime() + 1) }))).toBe(true);
  });
});
