import { describe, expect, it } from 'vitest';
import { denyListScreen, noRiskScreen } from './index';

const HEX = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('denyListScreen', () => {
  it('matches hex addresses whatever their case', async () => {
    const screen = denyListScreen([HEX]);
    for (const sender of [HEX, HEX.toLowerCase(), `0x${HEX.slice(2).toUpperCase()}`]) {
      const verdict = await screen.screen({ sender, currency: 'USDT', network: 'ethereum' });
      expect(verdict.flagged, sender).toBe(true);
      expect(verdict.reason).toBe(`Sender ${sender} is on the deny list.`);
    }
    expect(await denyListScreen([HEX.toLowerCase()]).screen({ sender: HEX, currency: 'ETH' })).toMatchObject({
      flagged: true,
    });
  });

  it('matches other addresses exactly', async () => {
    const tron = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
    const screen = denyListScreen([tron]);
    expect(await screen.screen({ sender: tron, currency: 'USDT' })).toMatchObject({ flagged: true });
    expect(await screen.screen({ sender: tron.toLowerCase(), currency: 'USDT' })).toEqual({ flagged: false });
    expect(await screen.screen({ sender: tron.slice(0, -1), currency: 'USDT' })).toEqual({ flagged: false });
  });

  it('trims blanks around entries and senders, and skips blank entries', async () => {
    const screen = denyListScreen(['  bc1qdenied \n', '', '   ']);
    expect(await screen.screen({ sender: 'bc1qdenied', currency: 'BTC' })).toEqual({
      flagged: true,
      reason: 'Sender bc1qdenied is on the deny list.',
    });
    expect(await screen.screen({ sender: ' bc1qdenied ', currency: 'BTC' })).toMatchObject({ flagged: true });
    expect(await screen.screen({ sender: '', currency: 'BTC' })).toEqual({ flagged: false });
    expect(await screen.screen({ sender: '   ', currency: 'BTC' })).toEqual({ flagged: false });
  });

  it('flags nothing with an empty list or an unknown sender', async () => {
    const empty = denyListScreen([]);
    expect(await empty.screen({ sender: HEX, currency: 'ETH' })).toEqual({ flagged: false });
    expect(await empty.screen({ sender: null, currency: 'ETH' })).toEqual({ flagged: false });
    expect(await denyListScreen([HEX]).screen({ sender: null, currency: 'ETH' })).toEqual({ flagged: false });
  });

  it('reads any iterable once', async () => {
    const screen = denyListScreen(new Set([HEX]).values());
    expect(await screen.screen({ sender: HEX, currency: 'ETH' })).toMatchObject({ flagged: true });
    expect(await screen.screen({ sender: HEX, currency: 'ETH' })).toMatchObject({ flagged: true });
  });
});

describe('noRiskScreen', () => {
  it('flags nothing', async () => {
    expect(await noRiskScreen.screen({ sender: HEX, currency: 'ETH' })).toEqual({ flagged: false });
  });
});
