import { describe, expect, it } from 'vitest';
import { WALLET_LANGUAGES, walletMessages } from './wallet-messages';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('walletMessages', () => {
  it('every language has every text, non-empty, with the placeholders of the English one', () => {
    const english = walletMessages('en');
    for (const language of WALLET_LANGUAGES) {
      const m = walletMessages(language);
      expect(Object.keys(m).sort(), language).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(m)) {
        expect(text.trim(), `${language}.${key}`).not.toBe('');
        expect(placeholders(text), `${language}.${key}`).toEqual(placeholders(english[key as keyof typeof english]));
        if (language !== 'en' && key !== 'sent') expect(text, `${language}.${key} is translated`).not.toBe(english[key as keyof typeof english]);
      }
    }
  });

  it('English for a language it does not have', () => {
    expect(walletMessages('ko')).toBe(walletMessages('en'));
    expect(walletMessages('')).toBe(walletMessages('en'));
    expect(walletMessages('fr').payWithWallet).toBe('Payer avec le portefeuille');
  });
});
