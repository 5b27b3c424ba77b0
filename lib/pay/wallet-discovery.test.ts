import { describe, expect, it, vi } from 'vitest';
import {
  announcedWallet,
  registeredSolanaWallets,
  registeredWallet,
  subscribeToSolanaWallets,
  WALLET_ICON_MAX,
  WALLET_NAME_MAX,
} from './wallet-discovery';

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

/** A Wallet Standard wallet as Phantom registers itself (the parts the page reads). */
const standard = (fields: Record<string, unknown> = {}, features: Record<string, unknown> = {}) => ({
  version: '1.0.0',
  name: 'Phantom',
  icon: PNG,
  chains: ['solana:mainnet', 'solana:devnet'],
  accounts: [],
  features: {
    'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [] }) },
    'solana:signAndSendTransaction': { version: '1.0.0', signAndSendTransaction: async () => [] },
    ...features,
  },
  ...fields,
});

describe('registeredWallet', () => {
  it('takes a wallet that can connect and sign and send on Solana mainnet: its name, data: image icon and itself', () => {
    const wallet = standard();
    expect(registeredWallet(wallet, 'w1')).toEqual({ uuid: 'w1', name: 'Phantom', icon: PNG, wallet });
  });

  it('applies the announcement rules to the name and the icon', () => {
    expect(registeredWallet(standard({ name: ' Pha\u0000ntom\n ' }), 'w')?.name).toBe('Phantom');
    expect(registeredWallet(standard({ name: 'x'.repeat(100) }), 'w')?.name).toBe('x'.repeat(WALLET_NAME_MAX));
    for (const icon of [
      'https://wallet.example/i.png',
      'data:text/html,<script>',
      `data:image/png,${'A'.repeat(WALLET_ICON_MAX)}`,
      {},
    ])
      expect(registeredWallet(standard({ icon }), 'w')).toMatchObject({ name: 'Phantom', icon: null });
  });

  it('ignores what cannot pay a mainnet order the way the page pays, or is no wallet', () => {
    for (const wallet of [
      undefined,
      null,
      'Phantom',
      standard({ chains: ['solana:devnet'] }),
      standard({ chains: 'solana:mainnet' }),
      standard({ name: '\u0007' }),
      standard({ name: 42 }),
      standard({ features: null }),
      standard({}, { 'standard:connect': undefined }),
      standard({}, { 'standard:connect': { connect: 'yes' } }),
      // signTransaction alone: the page would need a send endpoint of its own (decision 062).
      standard({}, { 'solana:signAndSendTransaction': undefined, 'solana:signTransaction': { signTransaction() {} } }),
    ])
      expect(registeredWallet(wallet, 'w')).toBeNull();
  });
});

describe('the Wallet Standard registration', () => {
  it('says app-ready once with a register API, takes wallets registered either way, each wallet object once', () => {
    const target = new EventTarget();
    vi.stubGlobal('window', target);
    try {
      const early = standard({ name: 'Early' });
      // A wallet loaded before the page: it listens for app-ready (@wallet-standard/wallet registerWallet).
      target.addEventListener('wallet-standard:app-ready', (event) =>
        (event as CustomEvent<{ register(...w: unknown[]): unknown }>).detail.register(early),
      );
      const changed = vi.fn();
      const unsubscribe = subscribeToSolanaWallets(changed);
      subscribeToSolanaWallets(() => {})();
      expect(registeredSolanaWallets().map((w) => w.name)).toEqual(['Early']);
      // A wallet loaded later dispatches register-wallet with its callback; again, and a wallet of
      // another chain and a callback that throws, change nothing.
      const late = standard({ name: 'Late' });
      let unregister: (() => void) | undefined;
      const announce = (detail: unknown) =>
        target.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail }));
      announce(({ register }: { register(w: unknown): () => void }) => (unregister = register(late)));
      announce(({ register }: { register(w: unknown): unknown }) => register(late));
      announce(({ register }: { register(w: unknown): unknown }) => register(standard({ chains: ['solana:devnet'] })));
      announce(() => {
        throw new Error('a broken wallet');
      });
      announce('not a callback');
      const wallets = registeredSolanaWallets();
      expect(wallets.map((w) => [w.name, w.wallet])).toEqual([
        ['Early', early],
        ['Late', late],
      ]);
      expect(new Set(wallets.map((w) => w.uuid)).size).toBe(2);
      expect(changed).toHaveBeenCalled();
      unregister!();
      expect(registeredSolanaWallets().map((w) => w.name)).toEqual(['Early']);
      unsubscribe();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
