import { describe, expect, it } from 'vitest';
import { directionOf, languageFrom, negotiateLanguage } from './i18n';
import { INVOICE_CHOICE_ERRORS, INVOICE_MESSAGES, isInvoiceChoiceError, MESSAGES } from './messages';

describe('negotiateLanguage', () => {
  it('?lang= wins when supported, region subtags and case ignored', () => {
    expect(negotiateLanguage('es', 'ar')).toBe('es');
    expect(negotiateLanguage('AR', null)).toBe('ar');
    expect(negotiateLanguage('es-MX', 'en')).toBe('es');
  });

  it('an unsupported ?lang= falls back to Accept-Language', () => {
    expect(negotiateLanguage('fr', 'es-ES,es;q=0.9')).toBe('es');
    expect(negotiateLanguage('<script>', 'ar-EG')).toBe('ar');
  });

  it('Accept-Language by quality, skipping unsupported languages and q=0', () => {
    expect(negotiateLanguage(null, 'fr-FR,fr;q=0.9,ar;q=0.8,es;q=0.7')).toBe('ar');
    expect(negotiateLanguage(null, 'en;q=0.5, es;q=0.8')).toBe('es');
    expect(negotiateLanguage(null, 'es;q=0, ar;q=0.1')).toBe('ar');
    expect(negotiateLanguage(null, 'de, *;q=0.1')).toBe('en');
  });

  it('English when nothing matches or nothing is given', () => {
    expect(negotiateLanguage(undefined, undefined)).toBe('en');
    expect(negotiateLanguage('', '')).toBe('en');
    expect(negotiateLanguage(null, 'zh-CN,ja;q=0.8')).toBe('en');
  });
});

describe('languageFrom and directionOf', () => {
  it('only a supported language is trusted from the header; Arabic is right-to-left', () => {
    expect(languageFrom('ar')).toBe('ar');
    expect(languageFrom('xx')).toBe('en');
    expect(languageFrom(null)).toBe('en');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('es')).toBe('ltr');
  });
});

describe('messages', () => {
  const placeholders = (value: unknown): string[] =>
    typeof value === 'string' ? (value.match(/\{\w+\}/g) ?? []).sort() : Object.values(value as object).flatMap(placeholders);
  const keys = (value: unknown, prefix = ''): string[] =>
    typeof value === 'string' ? [prefix] : Object.entries(value as object).flatMap(([k, v]) => keys(v, `${prefix}.${k}`));

  for (const [name, table] of Object.entries({ MESSAGES, INVOICE_MESSAGES })) {
    it(`${name}: every language has every text, with the same placeholders as English`, () => {
      for (const language of ['es', 'ar'] as const) {
        expect(keys(table[language])).toEqual(keys(table.en));
        expect(placeholders(table[language])).toEqual(placeholders(table.en));
        for (const key of keys(table.en)) {
          const text = key.split('.').slice(1).reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], table[language]);
          expect(text, `${name}.${language}${key}`).not.toBe('');
        }
      }
    });
  }
});

describe('isInvoiceChoiceError', () => {
  it('only the codes the invoice page has words for (a ?error= is the browser\'s to send)', () => {
    for (const code of INVOICE_CHOICE_ERRORS) expect(isInvoiceChoiceError(code)).toBe(true);
    for (const other of ['', 'Closed', 'constructor', '<b>x</b>', undefined, ['closed'], 1]) expect(isInvoiceChoiceError(other)).toBe(false);
  });
});
