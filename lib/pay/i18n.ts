/**
 * Languages of the payment page and their negotiation. Pure and client-safe; the messages
 * themselves live in ./messages and reach the browser only for the chosen language, as props.
 */

/**
 * The pages' languages: primary language tags, and Traditional Chinese by its script subtag
 * (`zh-Hant`). A region negotiates to its language (`pt-BR`, `pt-PT` to `pt`, written in Brazilian
 * Portuguese; `es-MX`, `es-ES` to `es`, written in neutral Latin American Spanish); Chinese by its
 * script, else its region (`zh-TW`, `zh-HK`, `zh-MO` to `zh-Hant`; `zh-CN`, `zh-SG`, `zh` to `zh`,
 * Simplified). The order is the language links': the first twelve, then the six added for where
 * crypto is used most (docs/decisions/051).
 */
export const LANGUAGES = [
  'en',
  'es',
  'ar',
  'pt',
  'fr',
  'de',
  'it',
  'tr',
  'ru',
  'uk',
  'zh',
  'ja',
  'hi',
  'vi',
  'id',
  'ur',
  'zh-Hant',
  'ko',
] as const;
export type Language = (typeof LANGUAGES)[number];

/** Names of the languages in themselves, for the language links. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  ar: 'العربية',
  pt: 'Português (Brasil)',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  tr: 'Türkçe',
  ru: 'Русский',
  uk: 'Українська',
  zh: '简体中文',
  ja: '日本語',
  hi: 'हिन्दी',
  vi: 'Tiếng Việt',
  id: 'Bahasa Indonesia',
  ur: 'اردو',
  'zh-Hant': '繁體中文',
  ko: '한국어',
};

const RTL: ReadonlySet<string> = new Set(['ar', 'ur']);

export function isLanguage(value: string | null | undefined): value is Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '');
}

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return RTL.has(language) ? 'rtl' : 'ltr';
}

/** Chinese subtags of Traditional Chinese: the script, else the regions that write it. */
const TRADITIONAL_CHINESE: ReadonlySet<string> = new Set(['hant', 'tw', 'hk', 'mo']);

/** "es-MX" -> "es", "zh-TW" and "zh-Hant" -> "zh-Hant", "zh-Hans-HK" -> "zh" when supported; undefined otherwise. */
function supported(tag: string): Language | undefined {
  const [primary = '', ...subtags] = tag.trim().toLowerCase().split(/[-_]/);
  if (primary === 'zh')
    return !subtags.includes('hans') && subtags.some((s) => TRADITIONAL_CHINESE.has(s)) ? 'zh-Hant' : 'zh';
  return isLanguage(primary) ? primary : undefined;
}

/**
 * The page's language: `?lang=` when it names a supported language, else the first supported
 * language of Accept-Language by quality (RFC 9110 12.5.4; q=0 means "not this one"), else English.
 */
export function negotiateLanguage(
  query: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Language {
  const asked = query ? supported(query) : undefined;
  if (asked) return asked;
  const ranges = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    const language = supported(range.tag);
    if (language) return language;
  }
  return 'en';
}

/** Request header in which proxy.ts hands the negotiated language to the layout and the page. */
export const LANGUAGE_HEADER = 'x-pay-language';

/** The language proxy.ts chose, English for anything else (a header it did not set is not trusted). */
export function languageFrom(header: string | null | undefined): Language {
  return isLanguage(header) ? header : 'en';
}
