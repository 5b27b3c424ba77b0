import { describe, expect, it } from 'vitest';
import { directionOf, type Language, LANGUAGES, languageFrom, negotiateLanguage } from './i18n';
import { ENGLISH_USES, GLOSSARY, type Script, TERMS } from './glossary';
import { INVOICE_CHOICE_ERRORS, isInvoiceChoiceError, MESSAGES } from './messages';

declare global {
  /** Vite's import.meta.glob (vitest runs on Vite), typed here: the project does not load Vite's client types. */
  interface ImportMeta {
    glob<T>(pattern: string, options: { eager: true }): Record<string, T>;
  }
}

describe('negotiateLanguage', () => {
  it('?lang= wins when supported, region subtags and case ignored', () => {
    expect(negotiateLanguage('es', 'ar')).toBe('es');
    expect(negotiateLanguage('AR', null)).toBe('ar');
    expect(negotiateLanguage('es-MX', 'en')).toBe('es');
    expect(negotiateLanguage('pt-BR', null)).toBe('pt');
    expect(negotiateLanguage('zh-CN', null)).toBe('zh');
  });

  it('an unsupported ?lang= falls back to Accept-Language', () => {
    expect(negotiateLanguage('nl', 'es-ES,es;q=0.9')).toBe('es');
    expect(negotiateLanguage('<script>', 'ar-EG')).toBe('ar');
  });

  it('Accept-Language by quality, skipping unsupported languages and q=0', () => {
    expect(negotiateLanguage(null, 'nl-NL,nl;q=0.9,ar;q=0.8,es;q=0.7')).toBe('ar');
    expect(negotiateLanguage(null, 'en;q=0.5, es;q=0.8')).toBe('es');
    expect(negotiateLanguage(null, 'es;q=0, ar;q=0.1')).toBe('ar');
    expect(negotiateLanguage(null, 'nl, *;q=0.1')).toBe('en');
    expect(negotiateLanguage(null, 'pt-BR,pt;q=0.9,en;q=0.5')).toBe('pt');
    expect(negotiateLanguage(null, 'uk-UA,ru;q=0.8')).toBe('uk');
  });

  it('Chinese by its script, else its region: Traditional for Taiwan, Hong Kong and Macau, Simplified otherwise', () => {
    for (const tag of ['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-hant-tw', 'zh_TW'])
      expect(negotiateLanguage(tag, null), tag).toBe('zh-Hant');
    for (const tag of ['zh', 'zh-CN', 'zh-SG', 'zh-Hans', 'zh-Hans-HK'])
      expect(negotiateLanguage(tag, null), tag).toBe('zh');
    expect(negotiateLanguage(null, 'zh-TW,zh;q=0.9,en;q=0.8')).toBe('zh-Hant');
    expect(negotiateLanguage(null, 'zh-HK')).toBe('zh-Hant');
  });

  it('the six languages added for where crypto is used most; pt-PT gets the Brazilian texts', () => {
    expect(negotiateLanguage(null, 'hi-IN,en;q=0.8')).toBe('hi');
    expect(negotiateLanguage(null, 'vi-VN')).toBe('vi');
    expect(negotiateLanguage(null, 'id-ID,id;q=0.9')).toBe('id');
    expect(negotiateLanguage(null, 'ur-PK')).toBe('ur');
    expect(negotiateLanguage(null, 'ko-KR,ko;q=0.9')).toBe('ko');
    expect(negotiateLanguage('pt-PT', null)).toBe('pt');
  });

  it('English when nothing matches or nothing is given', () => {
    expect(negotiateLanguage(undefined, undefined)).toBe('en');
    expect(negotiateLanguage('', '')).toBe('en');
    expect(negotiateLanguage(null, 'nl-NL,sv;q=0.8')).toBe('en');
  });
});

describe('languageFrom and directionOf', () => {
  it('only a supported language is trusted from the header; Arabic and Urdu are right-to-left', () => {
    expect(languageFrom('ar')).toBe('ar');
    expect(languageFrom('zh-Hant')).toBe('zh-Hant');
    expect(directionOf('ur')).toBe('rtl');
    expect(languageFrom('xx')).toBe('en');
    expect(languageFrom(null)).toBe('en');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('es')).toBe('ltr');
  });
});

/**
 * The payer-facing message tables: every table keyed by language (it has `en`) exported by a
 * `*messages.ts` file anywhere under lib/ (the payment and invoice pages', the wallet button's,
 * and each payer page's to come: its file joins by its name, docs/languages.md).
 */
const files = import.meta.glob<Record<string, unknown>>('/lib/**/*messages.ts', { eager: true });
const isTable = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && 'en' in value;
const isPlural = (value: object): boolean =>
  'other' in value && Object.keys(value).every((k) => ['zero', 'one', 'two', 'few', 'many', 'other'].includes(k));
/** Paths of the texts ("screens.paid.title"); a counted text is one path. */
const keys = (value: unknown, prefix = ''): string[] =>
  typeof value === 'string' || isPlural(value as object)
    ? [prefix]
    : Object.entries(value as object).flatMap(([k, v]) => keys(v, `${prefix}.${k}`));
const at = (table: unknown, key: string) =>
  key
    .split('.')
    .slice(1)
    .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], table);
const placeholders = (value: unknown): string[] =>
  typeof value === 'string'
    ? [...new Set(value.match(/\{\w+\}/g) ?? [])].sort()
    : [...new Set(Object.values(value as object).flatMap(placeholders))].sort();
/** The forms of a text: itself, or each form of a counted text. */
const formsOf = (text: unknown): string[] => (typeof text === 'string' ? [text] : Object.values(text as object));

const tables = Object.entries(files).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => isTable(value))
    .map(([name, value]) => [`${file} ${name}`, value as Record<string, unknown>] as const),
);

/** Every text of `language` in every table, as [where, text] ("./messages.ts MESSAGES.fr.screens.paid.title"). */
function textsOf(language: Language): [string, string][] {
  return tables.flatMap(([name, table]) =>
    keys(table.en).flatMap((key) =>
      formsOf(at(table[language], key)).map((text) => [`${name}.${language}${key}`, text] as [string, string]),
    ),
  );
}

/**
 * Every language has every text, with the placeholders of English, and a counted text (an object
 * with `other`) has a form for each plural category Intl knows in that language.
 */
describe('messages', () => {
  it('finds the tables (MESSAGES, INVOICE_MESSAGES, WALLET_MESSAGES at least)', () => {
    expect(tables.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        '/lib/pay/messages.ts MESSAGES',
        '/lib/pay/messages.ts INVOICE_MESSAGES',
        '/lib/pay/wallet-messages.ts WALLET_MESSAGES',
      ]),
    );
  });

  for (const [name, table] of tables) {
    it(`${name}: every language has every text, with the same placeholders as English and every plural form`, () => {
      expect(Object.keys(table).sort()).toEqual([...LANGUAGES].sort());
      for (const language of LANGUAGES) {
        expect(keys(table[language]), `${name}.${language}`).toEqual(keys(table.en));
        const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        for (const key of keys(table.en)) {
          const text = at(table[language], key);
          const where = `${name}.${language}${key}`;
          expect(placeholders(text), where).toEqual(placeholders(at(table.en, key)));
          for (const form of formsOf(text)) expect(form, where).not.toBe('');
          if (typeof text !== 'string')
            for (const category of categories) expect(text, `${where} (${category})`).toHaveProperty(category);
        }
      }
    });
  }

  /** Each language's letters (Japanese: kanji and kana). */
  const SCRIPT_LETTER: Record<Script, RegExp> = {
    Latin: /\p{Script=Latin}/u,
    Arabic: /\p{Script=Arabic}/u,
    Cyrillic: /\p{Script=Cyrillic}/u,
    Devanagari: /\p{Script=Devanagari}/u,
    Han: /\p{Script=Han}/u,
    Japanese: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
    Hangul: /\p{Script=Hangul}/u,
  };

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${language}: no text is left untranslated (in its script; not English's own words)`, () => {
      const { script, sameAsEnglish = [] } = GLOSSARY[language];
      const english = new Map(textsOf('en').map(([where, text]) => [where.replace('.en.', '.'), text]));
      const untranslated = textsOf(language).filter(([where, text]) => {
        if (!/\p{L}/u.test(text.replace(/\{\w+\}/g, ''))) return false; // punctuation alone: the separators
        if (script !== 'Latin') return !SCRIPT_LETTER[script].test(text);
        return text === english.get(where.replace(`.${language}.`, '.')) && !sameAsEnglish.includes(text);
      });
      expect(untranslated).toEqual([]);
    });
  }
});

/** Case, Unicode form and Arabic short vowels set aside: "تأكيدًا" contains "تأكيد". */
const normalize = (text: string) =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u064B-\u065F\u0670]/g, '');

describe('glossary (lib/pay/glossary.ts)', () => {
  it('has every language', () => {
    expect(Object.keys(GLOSSARY).sort()).toEqual([...LANGUAGES].sort());
  });

  for (const language of LANGUAGES) {
    it(`${language}: a text whose English uses a key term uses the glossary's word, and no text a flagged one`, () => {
      const { terms, avoid } = GLOSSARY[language];
      const missing = tables.flatMap(([name, table]) =>
        keys(table.en).flatMap((key) => {
          const english = formsOf(at(table.en, key))
            .join(' ')
            .replace(/\{\w+\}/g, '');
          return TERMS.filter((term) => ENGLISH_USES[term].test(english)).flatMap((term) => {
            const { word, forms = [word] } = terms[term];
            return formsOf(at(table[language], key))
              .filter((text) => !forms.some((form) => normalize(text).includes(normalize(form))))
              .map((text) => `${name}.${language}${key}: ${term} is "${word}" in "${text}"`);
          });
        }),
      );
      expect(missing).toEqual([]);
      const flagged = textsOf(language).flatMap(([where, text]) =>
        avoid.filter((a) => normalize(text).includes(normalize(a.text))).map((a) => `${where}: "${a.text}" (${a.why})`),
      );
      expect(flagged).toEqual([]);
    });
  }
});

describe('typography', () => {
  it('French: a no-break space before : ; ! ? » and after «, so that the sign never starts a line', () => {
    const broken = textsOf('fr').filter(([, text]) => / [:;!?»]|« /.test(text));
    expect(broken).toEqual([]);
  });

  it('non-Latin scripts name the destination tag as wallets do, in English, beside their own word', () => {
    // Wallets call the field "Destination Tag", "Tag" or "Memo"; a payer reading another script must find it.
    const nonLatin = LANGUAGES.filter((language) => !/[a-z]/i.test(MESSAGES[language].screens.awaiting.title));
    expect(nonLatin).toEqual(expect.arrayContaining(['ar', 'ru', 'uk', 'zh', 'ja']));
    for (const language of nonLatin) {
      expect(MESSAGES[language].tag, language).toContain('Destination Tag');
      expect(MESSAGES[language].tagWarningTitle, language).toContain('Destination Tag');
    }
  });
});

describe('isInvoiceChoiceError', () => {
  it("only the codes the invoice page has words for (a ?error= is the browser's to send)", () => {
    for (const code of INVOICE_CHOICE_ERRORS) expect(isInvoiceChoiceError(code)).toBe(true);
    for (const other of ['', 'Closed', 'constructor', '<b>x</b>', undefined, ['closed'], 1])
      expect(isInvoiceChoiceError(other)).toBe(false);
  });
});
