import { describe, expect, it } from 'vitest';
import { literalPercentPath } from './request-path';

describe('literalPercentPath', () => {
  it('leaves paths that decode alone', () => {
    for (const path of [
      '/pay/6f1c1f7e-8a3b-4a53-9d55-0a4f7d1a2b3c',
      '/pay/%41%42',
      '/pay/%E2%82%AC',
      '/api/pay/%00/status',
      '/',
    ]) {
      expect(literalPercentPath(path), path).toBeUndefined();
    }
  });

  it('takes the % of a segment that does not decode literally, and only of that segment', () => {
    expect(literalPercentPath('/pay/%ZZ')).toBe('/pay/%25ZZ');
    expect(literalPercentPath('/pay/%E0%A4%A')).toBe('/pay/%25E0%25A4%25A');
    expect(literalPercentPath('/api/pay/%E0%A4%A/status')).toBe('/api/pay/%25E0%25A4%25A/status');
    expect(literalPercentPath('/a%41/%/b%ED%A0%80')).toBe('/a%41/%25/b%25ED%25A0%2580');
  });

  it('answers a path whose every segment decodes, to the text that was sent', () => {
    for (const path of ['/pay/%ZZ', '/pay/%', '/pay/%C0%80', '/pay/%ED%A0%80', '/pay/%FF%FE', '/pay/x%2']) {
      const literal = literalPercentPath(path)!;
      expect(literal.split('/').map(decodeURIComponent).join('/'), path).toBe(path);
    }
  });
});
