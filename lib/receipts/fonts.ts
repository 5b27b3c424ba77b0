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
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import type { Language } from '../pay/i18n';

export type FontName = 'latin' | 'arabic' | 'devanagari' | 'jp' | 'sc' | 'tc' | 'kr';

/** Each font's npm package (its entry point locates the folder) and file, SIL Open Font License 1.1 all. */
const FONT_FILES: Record<FontName, { pkg: string; file: string }> = {
  // Latin, Latin Extended (Vietnamese, Turkish), Greek, Cyrillic.
  latin: { pkg: '@embedpdf/fonts-latin', file: 'fonts/NotoSans-Regular.ttf' },
  // Arabic and Urdu letters (Naskh: Urdu's usual Nastaliq is not in a small npm package).
  arabic: { pkg: '@embedpdf/fonts-arabic', file: 'fonts/NotoNaskhArabic-Regular.ttf' },
  devanagari: {
    pkg: '@fontsource/noto-sans-devanagari',
    file: 'files/noto-sans-devanagari-devanagari-400-normal.woff2',
  },
  jp: { pkg: '@embedpdf/fonts-jp', file: 'fonts/NotoSansJP-Regular.otf' },
  sc: { pkg: '@embedpdf/fonts-sc', file: 'fonts/NotoSansHans-Regular.otf' },
  tc: { pkg: '@embedpdf/fonts-tc', file: 'fonts/NotoSansHant-Regular.otf' },
  kr: { pkg: '@embedpdf/fonts-kr', file: 'fonts/NotoSansKR-Regular.otf' },
};

/** The Han font a language prefers; the others follow it as fallbacks. */
const HAN_FIRST: Partial<Record<Language, FontName>> = { ja: 'jp', zh: 'sc', 'zh-Hant': 'tc', ko: 'kr' };

/** The order in which a document's characters look for a font: the first that has the glyph draws it. */
export function fontOrder(language: Language): FontName[] {
  const han: FontName[] = ['jp', 'sc', 'tc', 'kr'];
  const first = HAN_FIRST[language];
  return ['latin', 'arabic', 'devanagari', ...(first ? [first, ...han.filter((f) => f !== first)] : han)];
}

const requireHere = createRequire(import.meta.url);

/** The package's folder: above its entry point (the packages export no subpaths). */
function packageFolder(pkg: string): string {
  let dir = path.dirname(requireHere.resolve(pkg));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

export interface LoadedFont {
  name: FontName;
  /** fontkit's reading of the file: what pdfkit embeds, and the coverage of a character. */
  face: fontkit.Font;
}

const loaded = new Map<FontName, LoadedFont>();

export function loadFont(name: FontName): LoadedFont {
  let font = loaded.get(name);
  if (!font) {
    const { pkg, file } = FONT_FILES[name];
    const bytes = fs.readFileSync(path.join(packageFolder(pkg), file));
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
