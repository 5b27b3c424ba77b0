/**
 * Lines of mixed scripts in the order they are drawn (docs/decisions/075). A PDF library draws
 * glyphs left to right in the order it is given them; pdfkit shapes through fontkit (Arabic joining,
 * Devanagari conjuncts) and reverses a run whose script is right-to-left, but it knows nothing of a
 * line that mixes directions ("المبلغ: 0.5 BTC"). This file runs Unicode's bidirectional algorithm
 * (UAX #9, bidi-js) over one line, cuts it into runs of one direction and one font, and orders the
 * runs from left to right. Pure: tested in bidi.test.ts.
 */
import bidiFactory from 'bidi-js';

const bidi = bidiFactory();

/** Direction marks and isolates (lib/pay/format `isolate`): they steer the algorithm and draw nothing. */
const CONTROL = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
/** Letters whose script fontkit shapes right to left (and so reverses by itself). */
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

export type BaseDirection = 'ltr' | 'rtl';

/** A run as the PDF library gets it: text it will lay out left to right (or reverse itself, see above). */
export interface VisualRun<F> {
  text: string;
  font: F | null;
  rtl: boolean;
}

/** The direction of a text of its own (a value): its first strong letter's, else `fallback`. */
export function directionOfText(text: string, fallback: BaseDirection): BaseDirection {
  const { paragraphs } = bidi.getEmbeddingLevels(text.replace(CONTROLS, ''));
  const first = paragraphs[0];
  if (!first || !/\p{L}/u.test(text)) return fallback;
  return first.level % 2 === 1 ? 'rtl' : 'ltr';
}

/**
 * One line's runs from left to right. `fontOf` picks each character's font (null: none has it),
 * bidirectional controls aside, given the font of the character before it: spaces, punctuation and combining marks may stay in
 * it, so an Arabic phrase is one run and a vowel sign is never cut from its letter.
 */
export function visualRuns<F>(
  line: string,
  direction: BaseDirection,
  fontOf: (codePoint: number, previous: F | null) => F | null,
): VisualRun<F>[] {
  if (line.length === 0) return [];
  const levels = bidi.getEmbeddingLevels(line, direction);
  const fonts: (F | null)[] = [];
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    const isLowSurrogate = code >= 0xdc00 && code <= 0xdfff && i > 0;
    const previous = i > 0 ? fonts[i - 1]! : null;
    // A control draws nothing: it keeps the font before it, and no font is looked up for it.
    const sameAsPrevious = isLowSurrogate || CONTROL.test(line[i]!);
    fonts.push(sameAsPrevious ? previous : fontOf(line.codePointAt(i)!, previous));
  }
  const mirrored = bidi.getMirroredCharactersMap(line, levels.levels);
  const order = bidi.getReorderedIndices(line, levels);

  const runs: VisualRun<F>[] = [];
  let start = 0;
  while (start < order.length) {
    const first = order[start]!;
    const rtl = levels.levels[first]! % 2 === 1;
    let end = start + 1;
    while (end < order.length) {
      const index = order[end]!;
      const previous = order[end - 1]!;
      const adjacent = rtl ? index === previous - 1 : index === previous + 1;
      if (!adjacent || (levels.levels[index]! % 2 === 1) !== rtl || fonts[index] !== fonts[first]) break;
      end++;
    }
    const indices = order.slice(start, end);
    const low = Math.min(...indices);
    const high = Math.max(...indices);
    let text = '';
    for (let i = low; i <= high; i++) text += mirrored.get(i) ?? line[i];
    text = text.replace(CONTROLS, '');
    // fontkit reverses a run of right-to-left letters itself; one of neutrals only (spaces,
    // brackets between two Arabic words) it would draw as given, so it gets the drawn order.
    if (rtl && !RTL_LETTER.test(text)) text = [...text].reverse().join('');
    if (text.length > 0) runs.push({ text, font: fonts[first]!, rtl });
    start = end;
  }
  return runs;
}

/**
 * A text cut into lines no wider than `maxWidth` (measured by `width`), at spaces where it can,
 * inside a word (a transaction id, a long name) where it must. Lines keep logical order.
 */
export function wrapText(text: string, maxWidth: number, width: (text: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (const word of paragraph.split(/(?<= )/)) {
      const candidate = line + word;
      if (width(candidate.trimEnd()) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line.trimEnd());
      let rest = word;
      while (width(rest.trimEnd()) > maxWidth) {
        const chars = [...rest];
        let fit = 1;
        while (fit < chars.length && width(chars.slice(0, fit + 1).join('')) <= maxWidth) fit++;
        lines.push(chars.slice(0, fit).join(''));
        rest = chars.slice(fit).join('');
      }
      line = rest;
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
