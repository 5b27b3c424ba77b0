/**
 * Noto Sans, the Han fonts and Noto Nastaliq Urdu are slices of variable fonts (./fonts,
 * docs/decisions/080 and 095): each slice made ready before drawing, in the document's language's
 * own family first, at the regular weight; Nastaliq laid out by HarfBuzz (./shaping).
 */
import { describe, expect, it } from 'vitest';
import { fontFor, fontOrder, loadFont, prepareFonts } from './fonts';

const ONE = 0x4e00; // 一: a single horizontal stroke, as thick as the weight

describe('Han fonts', () => {
  it('are drawn at the regular weight, not the variable font default (its thinnest)', async () => {
    const order = fontOrder('ja');
    await prepareFonts('一', order);
    const name = fontFor(ONE, order)!;
    expect(name).toMatch(/^jp:/);
    const { face } = loadFont(name);
    expect(face.postscriptName).toBe('NotoSansJP-Regular');
    const { bbox } = face.glyphForCodePoint(ONE);
    // Noto Sans CJK draws this stroke 82 units high of 1000 at weight 400, 33 at its default, 100.
    expect(bbox.maxY - bbox.minY).toBeGreaterThan(70);
  });

  it("take the language's own family first, the others as fallbacks", async () => {
    for (const [language, family] of [
      ['ja', 'jp'],
      ['zh', 'sc'],
      ['zh-Hant', 'tc'],
      ['ko', 'kr'],
    ] as const) {
      await prepareFonts('一한', fontOrder(language));
      expect(fontFor(ONE, fontOrder(language))).toMatch(new RegExp(`^${family}:`));
    }
    // Hangul from the Korean family whatever the language; Latin from Noto Sans.
    expect(fontFor('한'.codePointAt(0)!, fontOrder('ja'))).toMatch(/^kr:/);
    expect(fontFor(0x41, fontOrder('ja'))).toBe('latin:latin');
    // Devanagari from Noto Sans's own slice, which keeps its conjuncts' rules.
    await prepareFonts('क्ष', fontOrder('hi'));
    expect(fontFor('क'.codePointAt(0)!, fontOrder('hi'))).toBe('latin:devanagari');
  });

  it('try every slice whose range lists a character until one has it', async () => {
    // Noto Sans's "latin-ext" and "latin" ranges both list the dotless i; only "latin" has it.
    await prepareFonts('ı', fontOrder('tr'));
    expect(fontFor('ı'.codePointAt(0)!, fontOrder('tr'))).toBe('latin:latin');
  });

  it('must be made ready before a document is drawn', () => {
    expect(() => fontFor('語'.codePointAt(0)!, fontOrder('zh-Hant'))).toThrow(/not prepared/);
  });
});

describe('a glyph made without characters', () => {
  it("takes those of the first call that has them (a composite's part, embedded by an earlier PDF)", () => {
    const { face } = loadFont('arabic');
    const id = face.numGlyphs - 1;
    expect(face.getGlyph(id).codePoints).toEqual([]);
    expect(face.getGlyph(id, [0x62d]).codePoints).toEqual([0x62d]);
    expect(face.getGlyph(id, [0x635]).codePoints).toEqual([0x62d]);
  });
});

describe('Urdu', () => {
  it('takes Nastaliq before Naskh; every other language Naskh', async () => {
    const ye = 'ی'.codePointAt(0)!;
    await prepareFonts('ی', fontOrder('ur'));
    expect(fontFor(ye, fontOrder('ur'))).toBe('urdu:arabic');
    expect(fontFor(ye, fontOrder('ar'))).toBe('arabic');
    expect(loadFont('urdu:arabic').textLayer).toBe('arabic');
    expect(loadFont('arabic').textLayer).toBeNull();
  });

  it("is laid out by HarfBuzz, where fontkit's own layout throws; its glyphs carry no text", async () => {
    await prepareFonts('نیچے', fontOrder('ur'));
    const { face } = loadFont('urdu:arabic');
    const run = face.layout('نیچے');
    expect(run.glyphs.length).toBeGreaterThan(0);
    expect(run.glyphs.every((g) => g.codePoints.length === 0)).toBe(true);
    // Cursive joins climb: some glyph sits above the baseline.
    expect(run.positions.some((p) => p.yOffset > 0)).toBe(true);
    expect(run.advanceWidth).toBeGreaterThan(0);
  });
});
