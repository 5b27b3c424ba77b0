import { describe, expect, it } from 'vitest';
import { announcedWallet, WALLET_ICON_MAX, WALLET_NAME_MAX } from './wallet-discovery';

const provider = { request: async () => null };
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const announce = (info: Record<string, unknown>, by: unknown = provider) => ({
  info: { uuid: '350670db-19fa-4704-a166-e52e178b59d2', name: 'Alpha Wallet', icon: PNG, rdns: 'test.alpha', ...info },
  provider: by,
});

describe('announcedWallet', () => {
  it('takes an EIP-6963 announcement: its uuid, name, data: image icon and provider', () => {
    expect(announcedWallet(announce({}))).toEqual({
      uuid: '350670db-19fa-4704-a166-e52e178b59d2',
      name: 'Alpha Wallet',
      icon: PNG,
      provider,
    });
    const svg = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(announcedWallet(announce({ icon: svg }))?.icon).toBe(svg);
  });

  it('keeps the wallet but drops an icon that is not a data: image (no URL the page would fetch)', () => {
    for (const icon of [
      'https://wallet.example/icon.png',
      '//wallet.example/icon.png',
      'javascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      ` ${PNG}`,
      `data:image/png;base64,${'A'.repeat(WALLET_ICON_MAX)}`,
      42,
      undefined,
    ]) {
      expect(announcedWallet(announce({ icon }))).toMatchObject({ name: 'Alpha Wallet', icon: null });
    }
  });

  it('shows a name without control characters, cut to a length a button holds', () => {
    expect(announcedWallet(announce({ name: ' Al\u0000pha\n ' }))?.name).toBe('Alpha');
    expect(announcedWallet(announce({ name: '🦊'.repeat(100) }))?.name).toBe('🦊'.repeat(WALLET_NAME_MAX));
  });

  it('ignores anything that is not an announcement of a provider', () => {
    for (const detail of [
      undefined,
      null,
      'MetaMask',
      { info: null, provider },
      { provider },
      { ...announce({}), provider: undefined },
      announce({}, { request: 'not a function' }),
      announce({ uuid: '' }),
      announce({ uuid: 7 }),
      announce({ name: undefined }),
      announce({ name: '\u0000 \u0007' }),
    ]) {
      expect(announcedWallet(detail)).toBeNull();
    }
  });
});
