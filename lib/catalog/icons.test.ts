import { describe, expect, it } from 'vitest';
import { COIN_ICONS, iconSvg, iconUrl, NETWORK_ICONS } from './icons';
import { NETWORKS } from './index';

describe('coin and network icons', () => {
  it('one for every network and every coin of the catalog but RLUSD, each an SVG', () => {
    expect(NETWORKS.map((n) => n.name).filter((name) => iconUrl('network', name) === null)).toEqual([]);
    const tickers = [...new Set(NETWORKS.flatMap((n) => n.currencies.map((c) => c.ticker)))];
    expect(tickers.filter((ticker) => iconUrl('coin', ticker) === null)).toEqual(['RLUSD']);
    for (const svg of [...Object.values(COIN_ICONS), ...Object.values(NETWORK_ICONS)])
      expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 24 24"[\s\S]*<\/svg>\n?$/);
  });

  it('serves the named icons only', () => {
    expect(iconUrl('coin', 'USDT')).toBe('/icons/coin/USDT.svg');
    expect(iconSvg('coin', 'USDT.svg')).toBe(COIN_ICONS.USDT);
    expect(iconSvg('network', 'tron.svg')).toBe(NETWORK_ICONS.tron);
    for (const [kind, file] of [
      ['coin', 'USDT'],
      ['coin', 'RLUSD.svg'],
      ['coin', 'toString.svg'],
      ['coin', '__proto__.svg'],
      ['wallet', 'USDT.svg'],
      ['network', '../USDT.svg'],
    ] as const)
      expect(iconSvg(kind, file), `${kind}/${file}`).toBeNull();
    expect(iconUrl('coin', 'constructor')).toBeNull();
  });
});
