import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './i18n';
import { walletMessages } from './wallet-messages';

// That every language has every text with English's placeholders is lib/pay/i18n.test.ts's check.
describe('walletMessages', () => {
  it('is translated: no language but English shows an English text (the sent line ends in a transaction id)', () => {
    const english = walletMessages('en');
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      for (const [key, text] of Object.entries(walletMessages(language))) {
        if (key !== 'sent') expect(text, `${language}.${key}`).not.toBe(english[key as keyof typeof english]);
      }
    }
    expect(walletMessages('fr').payWithWallet).toBe('Payer avec le portefeuille');
  });
});
