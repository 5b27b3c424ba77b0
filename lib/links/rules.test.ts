import { describe, expect, it } from 'vitest';
import { linkStatus, priceOfChoice, saleTotal, type LinkFacts } from './rules';

const now = new Date('2026-11-27T12:00:00.000Z');
const open: LinkFacts = { active: true, expiresAt: null, maxUses: null, paid: 0 };

describe('linkStatus', () => {
  it('ACTIVE while enabled, before its expiry and under its uses', () => {
    expect(linkStatus(open, now)).toBe('ACTIVE');
    expect(linkStatus({ ...open, expiresAt: new Date(now.getTime() + 1), maxUses: 2, paid: 1 }, now)).toBe('ACTIVE');
  });
  it('DISABLED when the merchant disabled it, whatever else holds', () => {
    expect(linkStatus({ ...open, active: false, expiresAt: now, maxUses: 1, paid: 1 }, now)).toBe('DISABLED');
  });
  it('EXPIRED from its expiry on (the instant itself included)', () => {
    expect(linkStatus({ ...open, expiresAt: now }, now)).toBe('EXPIRED');
    expect(linkStatus({ ...open, expiresAt: now, maxUses: 1, paid: 1 }, now)).toBe('EXPIRED');
  });
  it('USED_UP once its paid invoices reach maxUses', () => {
    expect(linkStatus({ ...open, maxUses: 3, paid: 3 }, now)).toBe('USED_UP');
    expect(linkStatus({ ...open, maxUses: 3, paid: 2 }, now)).toBe('ACTIVE');
  });
});

describe('priceOfChoice', () => {
  const fixed = { kind: 'fixed', amount: 2500n, maxQuantity: 4 } as const;
  it('a fixed price times the quantity, 1 when none is given', () => {
    expect(priceOfChoice(fixed, 2, {})).toEqual({ ok: true, amount: 2500n, quantity: 1 });
    expect(priceOfChoice(fixed, 2, { quantity: 4 })).toEqual({ ok: true, amount: 10000n, quantity: 4 });
  });
  it('a quantity outside 1..maxQuantity (or any but 1 without one) is refused', () => {
    for (const quantity of [0, 5, -1, 1.5, Number.NaN])
      expect(priceOfChoice(fixed, 2, { quantity })).toEqual({ ok: false, problem: 'quantity' });
    expect(priceOfChoice({ ...fixed, maxQuantity: null }, 2, { quantity: 2 })).toEqual({
      ok: false,
      problem: 'quantity',
    });
  });
  const chosen = { kind: 'chosen', min: 500n, max: 100000n } as const;
  it('an amount the payer chooses, within the bounds inclusive', () => {
    expect(priceOfChoice(chosen, 2, { amount: '5' })).toEqual({ ok: true, amount: 500n, quantity: 1 });
    expect(priceOfChoice(chosen, 2, { amount: '1000.00' })).toEqual({ ok: true, amount: 100000n, quantity: 1 });
    expect(priceOfChoice(chosen, 2, { amount: '12.34' })).toEqual({ ok: true, amount: 1234n, quantity: 1 });
  });
  it('refuses an amount out of bounds, too precise, malformed or absent', () => {
    for (const amount of ['4.99', '1000.01', '5.001', '-5', '1e3', '', ' 5', '9'.repeat(80), undefined])
      expect(priceOfChoice(chosen, 2, { amount })).toEqual({ ok: false, problem: 'amount' });
  });
});

describe('saleTotal', () => {
  it('adds the tip in whole percent, rounded half up to the smallest unit', () => {
    expect(saleTotal(1000n, 0)).toEqual({ tip: 0n, total: 1000n });
    expect(saleTotal(1000n, 15)).toEqual({ tip: 150n, total: 1150n });
    expect(saleTotal(1234n, 15)).toEqual({ tip: 185n, total: 1419n }); // 185.1
    expect(saleTotal(1230n, 15)).toEqual({ tip: 185n, total: 1415n }); // 184.5 -> 185
    expect(saleTotal(1229n, 15)).toEqual({ tip: 184n, total: 1413n }); // 184.35
    expect(saleTotal(10n ** 70n, 20)).toEqual({ tip: 2n * 10n ** 69n, total: 12n * 10n ** 69n });
  });
});
