import 'server-only';
/**
 * The fonts a receipt PDF embeds (docs/decisions/075): Noto from npm packages, read from
 * node_modules at run time, never fetched and never the host's (a merchant's server has no CJK
 * fonts). Each file is loaded on first use only: a German receipt never opens the 4.5 MB Japanese
 * font. pdfkit embeds a subset of the glyphs a document uses.
 *
 * Han characters are shared by four fonts whose drawings differ by country: the document's language
 * picks its own first (./pdf `fontOrder`).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import type { Language } from '../pay/i18n';

export type FontName = 'latin' | 'arabic' | 'jp' | 'sc' | 'tc' | 'kr';

/** Each font's file in its npm package, SIL Open Font License 1.1 all. */
const FONT_FILES: Record<FontName, string> = {
  // Latin, Latin Extended (Vietnamese, Turkish), Greek, Cyrillic, and Devanagari (Hindi): Noto
  // Sans 2 draws them all, with Devanagari's conjuncts and vowel signs.
  latin: '@embedpdf/fonts-latin/fonts/NotoSans-Regular.ttf',
  // Arabic and Urdu letters (Naskh: Urdu's usual Nastaliq is not in a small npm package).
  arabic: '@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Regular.ttf',
  jp: '@embedpdf/fonts-jp/fonts/NotoSansJP-Regular.otf',
  sc: '@embedpdf/fonts-sc/fonts/NotoSansHans-Regular.otf',
  tc: '@embedpdf/fonts-tc/fonts/NotoSansHant-Regular.otf',
  kr: '@embedpdf/fonts-kr/fonts/NotoSansKR-Regular.otf',
};

/** The Han font a language prefers; the others follow it as fallbacks. */
const HAN_FIRST: Partial<Record<Language, FontName>> = { ja: 'jp', zh: 'sc', 'zh-Hant': 'tc', ko: 'kr' };

/** The order in which a document's characters look for a font: the first that has the glyph draws it. */
export function fontOrder(language: Language): FontName[] {
  const han: FontName[] = ['jp', 'sc', 'tc', 'kr'];
  const first = HAN_FIRST[language];
  return ['latin', 'arabic', ...(first ? [first, ...han.filter((f) => f !== first)] : han)];
}

/**
 * Where the packages are: the project's node_modules, from the folder the server runs in (as
 * lib/db finds its migrations). Not `require.resolve`: the packages export no file paths, and the
 * server bundle cannot resolve a package named at run time.
 */
const NODE_MODULES = path.join(process.cwd(), 'node_modules');

export interface LoadedFont {
  name: FontName;
  /** fontkit's reading of the file: what pdfkit embeds, and the coverage of a character. */
  face: fontkit.Font;
}

const loaded = new Map<FontName, LoadedFont>();

export function loadFont(name: FontName): LoadedFont {
  let font = loaded.get(name);
  if (!font) {
    const bytes = fs.readFileSync(path.join(NODE_MODULES, FONT_FILES[name]));
    font = { name, face: fontkit.create(bytes) as fontkit.Font };
    loaded.set(name, font);
  }
  return font;
}

/** Characters of no script of their own (spaces, punctuation, digits, combining marks). */
const SHARED = /[\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * The font that draws `codePoint`: the one before it when the character belongs to no script and
 * that font has it (an Arabic phrase's spaces stay in its run), else the first of `order` that has
 * it; null when none does (it would be a missing-glyph box).
 */
export function fontFor(
  codePoint: number,
  order: readonly FontName[],
  previous: FontName | null = null,
): FontName | null {
  if (
    previous &&
    SHARED.test(String.fromCodePoint(codePoint)) &&
    loadFont(previous).face.hasGlyphForCodePoint(codePoint)
  )
    return previous;
  for (const name of order) if (loadFont(name).face.hasGlyphForCodePoint(codePoint)) return name;
  return null;
}
