import 'server-only';
/**
 * The fonts a receipt PDF embeds (docs/decisions/075, 080): Noto from npm packages, read from
 * node_modules at run time, never fetched and never the host's (a merchant's server has no CJK
 * fonts). pdfkit embeds a subset of the glyphs a document uses.
 *
 * Arabic is one file, parsed on first use. Noto Sans (Latin, Greek, Cyrillic, Devanagari) and the
 * four Han families come as Fontsource's slices: one variable font a family (every weight in one
 * outline) cut by Unicode range into WOFF2 files, 4 to 6 MB a family where a package of static
 * weights is 12 to 41 MB. A slice is read only when a document has one of its characters, pinned
 * to the regular weight (400) and turned into a TrueType font by harfbuzz (`subset-font`, WASM):
 * pdfkit reads no WOFF2 and embeds a TrueType font's outlines as stored, which in a variable font
 * are its default weight (the thinnest, in the Han fonts). Each font is made once per process and
 * shared by every PDF.
 *
 * Han characters are shared by four families whose drawings differ by country: the document's
 * language picks its own first (`fontOrder`).
 *
 * Urdu is drawn in its own Nastaliq style (Noto Nastaliq Urdu, a slice like the others), shaped by
 * HarfBuzz (./shaping): fontkit, which lays out every other font, fails on its mark positioning.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import subsetFont from 'subset-font';
import type { Language } from '../pay/i18n';
import { shapeWithHarfBuzz } from './shaping';

type WholeFamily = 'arabic';
type HanFamily = 'jp' | 'sc' | 'tc' | 'kr';
type SlicedFamily = 'latin' | 'urdu' | HanFamily;
export type FontFamily = WholeFamily | SlicedFamily;
/** A font a PDF embeds: a whole family, or one slice of a family (`latin:devanagari`, `jp:119`). */
export type FontName = WholeFamily | `${SlicedFamily}:${string}`;

/**
 * Arabic letters, and an Urdu document's text layer (./pdf): Noto Naskh Arabic Regular, SIL Open
 * Font License 1.1.
 */
const ARABIC_FILE = '@embedpdf/fonts-arabic/fonts/NotoNaskhArabic-Regular.ttf';

/** Each sliced family's Fontsource package (SIL Open Font License 1.1): `unicode.json` and `files/`. */
const SLICED_PACKAGES: Record<SlicedFamily, string> = {
  // Latin, Latin Extended (Vietnamese, Turkish), Greek, Cyrillic, and Devanagari (Hindi): Noto
  // Sans draws them all, with Devanagari's conjuncts and vowel signs (its slice keeps their rules).
  latin: 'noto-sans',
  // Urdu's Nastaliq: its "arabic" slice draws an Urdu document's Arabic-script text (docs/decisions/095).
  urdu: 'noto-nastaliq-urdu',
  jp: 'noto-sans-jp',
  sc: 'noto-sans-sc',
  tc: 'noto-sans-tc',
  kr: 'noto-sans-kr',
};

/** The regular weight, as Noto Naskh Arabic Regular's. */
const REGULAR = 400;

/** The Han family a language prefers; the others follow it as fallbacks. */
const HAN_FIRST: Partial<Record<Language, HanFamily>> = { ja: 'jp', zh: 'sc', 'zh-Hant': 'tc', ko: 'kr' };

/** The families HarfBuzz shapes (./shaping): fontkit cannot lay them out. */
const SHAPED_BY_HARFBUZZ: ReadonlySet<SlicedFamily> = new Set(['urdu']);

/**
 * The order in which a document's characters look for a font: the first that has the glyph draws
 * it. An Urdu document takes Nastaliq before Naskh; every other language Naskh for Arabic script.
 */
export function fontOrder(language: Language): FontFamily[] {
  const han: HanFamily[] = ['jp', 'sc', 'tc', 'kr'];
  const first = HAN_FIRST[language];
  const arabic: FontFamily[] = language === 'ur' ? ['urdu', 'arabic'] : ['arabic'];
  return ['latin', ...arabic, ...(first ? [first, ...han.filter((f) => f !== first)] : han)];
}

/**
 * Where the packages are: the project's node_modules, from the folder the server runs in (as
 * lib/db finds its migrations). Not `require.resolve`: the packages export no file paths, and the
 * server bundle cannot resolve a package named at run time.
 */
const NODE_MODULES = path.join(process.cwd(), 'node_modules');

export interface LoadedFont {
  name: FontName;
  /** fontkit's reading of the font: what pdfkit embeds, and the coverage of a character. */
  face: fontkit.Font;
  /**
   * Shaped by HarfBuzz, its glyphs carry no text (./shaping): a PDF draws the run's text again,
   * invisible, in this font (./pdf), so that a reader extracts it in order. Null for the others.
   */
  textLayer: WholeFamily | null;
}

/**
 * fontkit keeps one glyph object per id for the life of a font, with the characters of the call
 * that first made it. Embedding a document's subset makes the parts of composite glyphs (a
 * letter's dots, an accent) with no characters, and pdfkit names each glyph's text (the PDF's
 * ToUnicode) from that object: a later document drawing such a part as a glyph of its own would
 * lose that letter to every reader. Fonts are shared by every PDF of the process: a glyph made
 * without characters takes those of the first call that has them.
 */
function keepingCharacters(face: fontkit.Font): fontkit.Font {
  const getGlyph = face.getGlyph.bind(face);
  Object.defineProperty(face, 'getGlyph', {
    value: (id: number, characters: number[] = []) => {
      const glyph = getGlyph(id, characters);
      if (glyph.codePoints.length === 0 && characters.length > 0) glyph.codePoints = characters;
      return glyph;
    },
  });
  return face;
}

const loaded = new Map<FontName, LoadedFont>();
const loading = new Map<FontName, Promise<LoadedFont>>();

function wholeFont(name: WholeFamily): LoadedFont {
  let font = loaded.get(name);
  if (!font) {
    const bytes = fs.readFileSync(path.join(NODE_MODULES, ARABIC_FILE));
    font = { name, face: keepingCharacters(fontkit.create(bytes) as fontkit.Font), textLayer: null };
    loaded.set(name, font);
  }
  return font;
}

/**
 * A sliced family from its package's `unicode.json` ("[12]": "U+4e00-4e0f,U+4e11"): each slice's
 * characters, and each character's slices in the order a browser tries them (ranges overlap, the
 * "latin" and "latin-ext" slices both list U+0131 where only one has it; CSS tries the last
 * declared first).
 */
interface SliceIndex {
  characters: Map<string, string>;
  slicesOf: Map<number, string[]>;
}

const sliceIndexes = new Map<SlicedFamily, SliceIndex>();

function sliceIndex(family: SlicedFamily): SliceIndex {
  let index = sliceIndexes.get(family);
  if (!index) {
    const file = path.join(NODE_MODULES, '@fontsource-variable', SLICED_PACKAGES[family], 'unicode.json');
    const ranges = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    index = { characters: new Map(), slicesOf: new Map() };
    for (const [key, list] of Object.entries(ranges)) {
      const slice = key.replace(/^\[|\]$/g, '');
      let characters = '';
      for (const range of list.split(',')) {
        const [from, to] = range.trim().replace(/^U\+/i, '').split('-') as [string, string?];
        for (let c = parseInt(from, 16); c <= parseInt(to ?? from, 16); c++) {
          characters += String.fromCodePoint(c);
          index.slicesOf.set(c, [slice, ...(index.slicesOf.get(c) ?? [])]);
        }
      }
      index.characters.set(slice, characters);
    }
    sliceIndexes.set(family, index);
  }
  return index;
}

/** The fonts of `family` that may draw `codePoint`, to be tried in order: the family, or its slices. */
function candidates(family: FontFamily, codePoint: number): FontName[] {
  if (family === 'arabic') return [family];
  return (sliceIndex(family).slicesOf.get(codePoint) ?? []).map((slice) => `${family}:${slice}` as const);
}

/** One slice of a family, pinned to the regular weight, as a TrueType font of the slice's characters. */
async function makeSlice(name: `${SlicedFamily}:${string}`): Promise<LoadedFont> {
  const [family, slice] = name.split(':') as [SlicedFamily, string];
  const base = SLICED_PACKAGES[family];
  const file = path.join(NODE_MODULES, '@fontsource-variable', base, 'files', `${base}-${slice}-wght-normal.woff2`);
  const truetype = await subsetFont(fs.readFileSync(file), sliceIndex(family).characters.get(slice) ?? '', {
    targetFormat: 'truetype',
    variationAxes: { wght: REGULAR },
  });
  const face = keepingCharacters(fontkit.create(truetype) as fontkit.Font);
  // harfbuzz moves the outlines to the weight but keeps the default's names ("NotoSansJP-Thin"):
  // the PDF names its font (pdfkit's BaseFont) by the weight it draws.
  Object.defineProperty(face, 'postscriptName', { value: face.postscriptName?.replace(/-\w+$/, '-Regular') });
  const shaped = SHAPED_BY_HARFBUZZ.has(family);
  if (shaped) await shapeWithHarfBuzz(face, truetype, 'ur');
  const font: LoadedFont = { name, face, textLayer: shaped ? 'arabic' : null };
  loaded.set(name, font);
  return font;
}

function loadFontAsync(name: FontName): Promise<LoadedFont> {
  if (name === 'arabic') return Promise.resolve(wholeFont(name));
  const done = loaded.get(name);
  if (done) return Promise.resolve(done);
  let pending = loading.get(name);
  if (!pending) {
    pending = makeSlice(name);
    // A failed slice (a damaged package) is tried again by the next PDF, not remembered.
    pending.catch(() => loading.delete(name));
    loading.set(name, pending);
  }
  return pending;
}

/**
 * A font made ready by `prepareFonts`. Asking for one that was not is a mistake in the caller:
 * drawing cannot wait for a slice to be made.
 */
export function loadFont(name: FontName): LoadedFont {
  if (name === 'arabic') return wholeFont(name);
  const font = loaded.get(name);
  if (!font) throw new Error(`The font ${name} was not prepared for this document`);
  return font;
}

/** The font whose missing glyph (blank, in Noto Sans) stands for a character no font has: its Basic Latin slice. */
export const MISSING_GLYPH_FONT: FontName = 'latin:latin';

/**
 * Makes ready every font that `fontFor` may pick for the characters of `text` in `order`: for
 * each character, the fonts of the order (and their slices) up to the first that has its glyph.
 * Before a document is laid out (./pdf), which then measures and draws without waiting.
 */
export async function prepareFonts(text: string, order: readonly FontFamily[]): Promise<void> {
  await loadFontAsync(MISSING_GLYPH_FONT);
  for (const codePoint of new Set([...text].map((c) => c.codePointAt(0)!)))
    for (const name of order.flatMap((family) => candidates(family, codePoint)))
      if ((await loadFontAsync(name)).face.hasGlyphForCodePoint(codePoint)) break;
}

/** Characters of no script of their own (spaces, punctuation, digits, combining marks). */
const SHARED = /[\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * The font that draws `codePoint`: the one before it when the character belongs to no script and
 * that font has it (an Arabic phrase's spaces stay in its run), else the first of `order` that has
 * it; null when none does (MISSING_GLYPH_FONT draws it). Its characters' fonts are made ready by
 * `prepareFonts` first.
 */
export function fontFor(
  codePoint: number,
  order: readonly FontFamily[],
  previous: FontName | null = null,
): FontName | null {
  if (
    previous &&
    SHARED.test(String.fromCodePoint(codePoint)) &&
    loadFont(previous).face.hasGlyphForCodePoint(codePoint)
  )
    return previous;
  return (
    order
      .flatMap((family) => candidates(family, codePoint))
      .find((name) => loadFont(name).face.hasGlyphForCodePoint(codePoint)) ?? null
  );
}
