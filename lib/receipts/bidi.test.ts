import { describe, expect, it } from 'vitest';
import { directionOfText, visualRuns, wrapText } from './bidi';

/** A font per script, as ./fonts picks them: Arabic letters in one, Latin in the other, the rest in the one before. */
const fontOf = (c: number, previous: string | null) =>
  c >= 0x0600 && c <= 0x06ff
    ? 'arabic'
    : /[\p{L}\p{N}]/u.test(String.fromCodePoint(c))
      ? 'latin'
      : (previous ?? 'latin');
const drawn = (line: string, direction: 'ltr' | 'rtl') =>
  visualRuns(line, direction, fontOf).map((r) => [r.text, r.font, r.rtl ? 'rtl' : 'ltr']);

describe('visualRuns', () => {
  it('a left-to-right line is one run, as written', () => {
    expect(drawn('Receipt: 0.5 BTC', 'ltr')).toEqual([['Receipt: 0.5 BTC', 'latin', 'ltr']]);
  });

  it('an Arabic label and an isolated Latin amount: the amount on the left, the label on the right, each in its font', () => {
    // Logical "المبلغ: ⁨0.5 BTC⁩" read right to left: the label first (rightmost), then the amount.
    expect(drawn('المبلغ: \u20680.5 BTC\u2069', 'rtl')).toEqual([
      ['0.5 BTC', 'latin', 'ltr'],
      ['المبلغ: ', 'arabic', 'rtl'],
    ]);
  });

  it('without the isolate the algorithm itself puts the coin before the number in a right-to-left line', () => {
    expect(drawn('المبلغ: 0.5 BTC', 'rtl').map(([text]) => text)).toEqual(['BTC', ' ', '0.5', 'المبلغ: ']);
  });

  it('words of an Arabic run stay in logical order for the shaper, which reverses the run as one', () => {
    expect(drawn('تم الدفع', 'rtl')).toEqual([['تم الدفع', 'arabic', 'rtl']]);
  });

  it('brackets inside right-to-left text are mirrored; a run without letters is handed over in drawn order', () => {
    const runs = drawn('الطلب (قهوة)', 'rtl');
    expect(runs).toEqual([['الطلب )قهوة(', 'arabic', 'rtl']]);
  });

  it('an isolated name keeps its punctuation on its side and its controls are not drawn', () => {
    // "Receipt from ⁨متجر!⁩": the "!" ends the Arabic name, so the shaper, reversing the run, draws it at its left end.
    expect(drawn('Receipt from \u2068متجر!\u2069', 'ltr')).toEqual([
      ['Receipt from ', 'latin', 'ltr'],
      ['متجر!', 'arabic', 'rtl'],
    ]);
  });

  it('a bidirectional control asks for no font: it keeps the one before it', () => {
    const asked: number[] = [];
    const runs = visualRuns<string>('Receipt from \u2068Café\u2069', 'ltr', (c, previous) => {
      asked.push(c);
      return fontOf(c, previous);
    });
    expect(asked.filter((c) => c === 0x2068 || c === 0x2069)).toEqual([]);
    expect(runs.map((r) => [r.text, r.font])).toEqual([['Receipt from Café', 'latin']]);
  });

  it('a character no font has is a run of its own with no font', () => {
    expect(visualRuns('a\u{1F600}b', 'ltr', (c) => (c < 0x80 ? 'latin' : null))).toEqual([
      { text: 'a', font: 'latin', rtl: false },
      { text: '\u{1F600}', font: null, rtl: false },
      { text: 'b', font: 'latin', rtl: false },
    ]);
  });
});

describe('directionOfText', () => {
  it("is the first strong letter's, else the document's", () => {
    expect(directionOfText('متجر ACME', 'ltr')).toBe('rtl');
    expect(directionOfText('ACME متجر', 'rtl')).toBe('ltr');
    expect(directionOfText('0.5', 'rtl')).toBe('rtl');
  });
});

describe('wrapText', () => {
  const width = (t: string) => [...t].length;
  it('breaks at spaces, and inside a word longer than a line', () => {
    expect(wrapText('one two three', 8, width)).toEqual(['one two', 'three']);
    expect(wrapText('abcdefghij', 4, width)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('a\nb', 8, width)).toEqual(['a', 'b']);
  });
});
