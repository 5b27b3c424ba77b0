import 'server-only';
/**
 * HarfBuzz's shaping (harfbuzzjs, its WebAssembly build, MIT; already what subset-font runs) for a
 * font fontkit cannot lay out: Noto Nastaliq Urdu, whose mark positioning fontkit reads as a null
 * anchor and throws on (ٹرانزیکشن, نیچے), and whose cursive joins climb each word diagonally
 * (docs/decisions/095).
 *
 * pdfkit lays text out by calling its fontkit font's `layout`; here that call is answered by
 * HarfBuzz, on the same TrueType bytes fontkit parsed (one glyph id means one glyph to both), in
 * fontkit's shape: glyphs in visual order with their advances and offsets. Its glyphs carry no
 * text: a reader taking text from glyphs placed at climbing heights reads them as several lines in
 * a broken order, so a PDF draws each such run's text again, invisible, in a font whose glyphs
 * read back in order (./pdf), as a scanned page carries its recognised text.
 */
import type * as fontkit from 'fontkit';

type HarfBuzz = typeof import('harfbuzzjs');

let harfbuzz: Promise<HarfBuzz> | null = null;

/** harfbuzzjs starts its WebAssembly when imported: once per process, on the first font that needs it. */
function loadHarfBuzz(): Promise<HarfBuzz> {
  harfbuzz ??= import('harfbuzzjs');
  return harfbuzz;
}

interface ShapedGlyph {
  id: number;
  advanceWidth: number;
  /** None: the text is drawn by the run's text layer (./pdf). */
  codePoints: number[];
}

interface ShapedRun {
  glyphs: ShapedGlyph[];
  positions: { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }[];
  readonly advanceWidth: number;
}

/**
 * Makes `face` (fontkit's reading of `bytes`) lay its text out with HarfBuzz, for text in
 * `language` (a BCP 47 tag: it picks the font's language forms).
 */
export async function shapeWithHarfBuzz(face: fontkit.Font, bytes: Uint8Array, language: string): Promise<void> {
  const hb = await loadHarfBuzz();
  const font = new hb.Font(new hb.Face(new hb.Blob(bytes), 0));
  const layout = (text: string): ShapedRun => {
    const buffer = new hb.Buffer();
    buffer.addText(text);
    buffer.guessSegmentProperties();
    buffer.setLanguage(language);
    hb.shape(font, buffer);
    const glyphs = buffer.getGlyphInfos().map((info) => ({
      id: info.codepoint,
      advanceWidth: face.getGlyph(info.codepoint).advanceWidth,
      codePoints: [],
    }));
    // pdfkit scales each position's keys in place: exactly these four.
    const positions = buffer.getGlyphPositions().map((p) => ({
      xAdvance: p.xAdvance,
      yAdvance: p.yAdvance,
      xOffset: p.xOffset,
      yOffset: p.yOffset,
    }));
    return {
      glyphs,
      positions,
      // Read after pdfkit scaled the positions, as fontkit's GlyphRun computes it.
      get advanceWidth() {
        return positions.reduce((sum, p) => sum + p.xAdvance, 0);
      },
    };
  };
  Object.defineProperty(face, 'layout', { value: layout });
}
