import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/schema';
import { parseFrameAncestors } from '../config/frame-ancestors';
import { contentSecurityPolicy, newNonce, nonceOf } from './headers';

describe('contentSecurityPolicy', () => {
  it('scripts only with the nonce (strict-dynamic), no unsafe-inline or eval for scripts in production', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc123', frameAncestors: null });
    const script = csp.split('; ').find((d) => d.startsWith('script-src'));
    expect(script).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(contentSecurityPolicy({ nonce: 'n', frameAncestors: null, dev: true })).toContain("'unsafe-eval'");
  });

  it('the payment page may be framed by the gateway itself and the configured sites', () => {
    expect(contentSecurityPolicy({ nonce: 'n', frameAncestors: [] })).toContain("frame-ancestors 'self'");
    expect(
      contentSecurityPolicy({ nonce: 'n', frameAncestors: ['https://shop.example', 'https://*.shop.example'] }),
    ).toContain("frame-ancestors 'self' https://shop.example https://*.shop.example");
  });

  it('frames only what frameSrc names (the demo store: its gateway), and default-src otherwise', () => {
    expect(contentSecurityPolicy({ nonce: 'n', frameAncestors: null })).not.toContain('frame-src');
    const store = contentSecurityPolicy({ nonce: 'n', frameAncestors: null, frameSrc: ['http://localhost:3000'] });
    expect(store.split('; ').filter((d) => d.startsWith('frame-'))).toEqual([
      'frame-src http://localhost:3000',
      "frame-ancestors 'none'",
    ]);
  });

  it('a fresh nonce every time', () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    expect([...nonces][0]).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("reads a policy's nonce back, and none from a policy without one (or no policy)", () => {
    const nonce = newNonce();
    expect(nonceOf(contentSecurityPolicy({ nonce, frameAncestors: null }))).toBe(nonce);
    expect(nonceOf("default-src 'self'")).toBeNull();
    expect(nonceOf(null)).toBeNull();
    // Only a base64 nonce: nothing that could close the attribute it is written into.
    expect(nonceOf(`script-src 'nonce-a"><script>' 'strict-dynamic'`)).toBeNull();
  });
});

describe('FRAME_ANCESTORS', () => {
  it('origins, wildcard sub-domains and * are accepted, comma or space separated', () => {
    expect(parseFrameAncestors(undefined)).toEqual([]);
    expect(parseFrameAncestors('https://shop.example, http://localhost:8080 https://*.Shop.example')).toEqual([
      'https://shop.example',
      'http://localhost:8080',
      'https://*.shop.example',
    ]);
    expect(parseFrameAncestors('*')).toEqual(['*']);
  });

  it('anything that could smuggle another directive or is not an origin is refused, naming the variable', () => {
    for (const bad of [
      "https://shop.example; script-src 'unsafe-inline'",
      "'unsafe-inline'",
      'shop.example',
      'https://shop.example/path',
      'ftp://x.example',
    ]) {
      expect(parseFrameAncestors(bad), bad).toBeNull();
      expect(() => parseConfig({ FRAME_ANCESTORS: bad })).toThrow(/FRAME_ANCESTORS: must be origins/);
    }
    expect(parseConfig({ FRAME_ANCESTORS: 'https://shop.example' }).frameAncestors).toEqual(['https://shop.example']);
    expect(parseConfig({}).frameAncestors).toEqual([]);
  });
});
