/**
 * The order page's claim links cookie (decision 102): every refund a decision made carries its own
 * link to the page, bounded to what a cookie holds, and nothing else is read from it.
 */
import { describe, expect, it } from 'vitest';
import {
  claimLinksOf,
  claimLinksValue,
  MOST_ENCODED_CHARACTERS,
} from '@/app/dashboard/(app)/orders/[orderId]/claim-links';

const made = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    refund: { id: crypto.randomUUID() },
    claimUrl: `https://pay.shop.example/refund/${String(i).padStart(43, 'A')}`,
  }));

describe('claim links handed to the order page', () => {
  it('carries each refund its own link, in order', () => {
    const three = made(3);
    const links = claimLinksOf(claimLinksValue(three)!);
    expect([...links]).toEqual(three.map((m) => [m.refund.id, m.claimUrl]));
  });

  it('holds as many as one cookie can, the first ones, and nothing for none', () => {
    const many = made(100);
    const value = claimLinksValue(many)!;
    expect(encodeURIComponent(value).length).toBeLessThanOrEqual(MOST_ENCODED_CHARACTERS);
    const links = claimLinksOf(value);
    expect(links.size).toBeGreaterThanOrEqual(20);
    expect([...links.keys()]).toEqual(many.slice(0, links.size).map((m) => m.refund.id));
    expect(claimLinksValue([])).toBeNull();
  });

  it('reads nothing but refund ids and web links', () => {
    const id = crypto.randomUUID();
    expect(claimLinksOf(undefined).size).toBe(0);
    expect(claimLinksOf(`${id} javascript:alert(1)`).size).toBe(0);
    expect(claimLinksOf(`not-an-id https://pay.shop.example/refund/x ${id}`).size).toBe(0);
    expect([...claimLinksOf(`${id} https://pay.shop.example/refund/x\u0000`)]).toEqual([]);
    expect([...claimLinksOf(`${id} https://pay.shop.example/refund/x`)]).toEqual([
      [id, 'https://pay.shop.example/refund/x'],
    ]);
  });
});
