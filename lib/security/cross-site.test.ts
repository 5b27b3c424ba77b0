import { describe, expect, it } from 'vitest';
import { isCrossSite } from './cross-site';

const from = (headers: Record<string, string>) => (name: string) => headers[name] ?? null;
const PUBLIC = 'https://pay.example';

describe('isCrossSite', () => {
  it('accepts the gateway own origin, by public URL or by Host, and requests without Origin', () => {
    expect(isCrossSite(from({ origin: 'https://pay.example', host: '127.0.0.1:3000' }), PUBLIC)).toBe(false);
    expect(
      isCrossSite(
        from({ origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }),
        PUBLIC,
      ),
    ).toBe(false);
    expect(isCrossSite(from({ host: 'pay.example' }), PUBLIC)).toBe(false);
  });

  it('refuses another origin, Origin: null and Sec-Fetch-Site: cross-site', () => {
    expect(isCrossSite(from({ origin: 'https://evil.example', host: 'pay.example' }), PUBLIC)).toBe(true);
    expect(isCrossSite(from({ origin: 'https://pay.example.evil.example', host: 'pay.example' }), PUBLIC)).toBe(true);
    expect(isCrossSite(from({ origin: 'null', host: 'pay.example' }), PUBLIC)).toBe(true);
    expect(isCrossSite(from({ 'sec-fetch-site': 'cross-site', host: 'pay.example' }), PUBLIC)).toBe(true);
  });
});
