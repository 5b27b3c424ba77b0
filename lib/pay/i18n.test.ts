import { describe, expect, it } from 'vitest';
import { directionOf, languageFrom, negotiateLanguage } from './i18n';
import { MESSAGES } from './messages';

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
  it('every language has every text, with the same placeholders as English', () => {
    const placeholders = (value: unknown): string[] =>
      typeof value === 'string' ? (value.match(/\{\w+\}/g) ?? []).sort() : Object.values(value as object).flatMap(placeholders);
    const keys = (value: unknown, prefix = ''): string[] =>
      typeof value === 'string' ? [prefix] : Object.entries(value as object).flatMap(([k, v]) => keys(v, `${prefix}.${k}`));
    for (const language of ['es', 'ar'] as const) {
      expect(keys(MESSAGES[language])).toEqual(keys(MESSAGES.en));
      expect(placeholders(MESSAGES[language])).toEqual(placeholders(MESSAGES.en));
      for (const key of keys(MESSAGES.en)) {
        const text = key.split('.').slice(1).reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], MESSAGES[language]);
        expect(text, `${language}${key}`).not.toBe('');
      }
    }
  });
});
