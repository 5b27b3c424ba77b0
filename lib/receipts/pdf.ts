import 'server-only';
/**
 * A receipt or invoice (./document) as a PDF, drawn by pdfkit with fonts from npm packages
 * (./fonts) and Unicode's bidirectional algorithm per line (./bidi): docs/decisions/075. Every
 * character gets the first font of the language's order that has its glyph, so a Japanese
 * receipt with a Latin transaction id and an Arabic merchant's name draws all three. A document
 * is laid out from its start side: right to left in Arabic and Urdu.
 */
import PDFDocument from 'pdfkit';
import { directionOfText, visualRuns, wrapText, type BaseDirection } from './bidi';
import type { PayerDocument } from './document';
import {
  fontFor,
  fontOrder,
  loadFont,
  MISSING_GLYPH_FONT,
  prepareFonts,
  type FontFamily,
  type FontName,
} from './fonts';

const MARGIN = 56;
const A4 = { width: 595.28, height: 841.89 };
const CONTENT = A4.width - 2 * MARGIN;
const GREY = '#52525b';
const INK = '#18181b';
/** Controls that steer the bidirectional algorithm: kept in the text drawn, dropped from metadata. */
const CONTROLS = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A line's height and where its baseline sits below the line's top, in ems. Every font of a line
 * shares one baseline (pdfkit would put each on its own ascender: Nastaliq's is 1.9 em). Urdu's
 * Nastaliq climbs above and hangs below the baseline further than the other scripts: its
 * documents get taller lines.
 */
function lineMetrics(language: PayerDocument['language']): { height: number; baseline: number } {
  return language === 'ur' ? { height: 2.2, baseline: 1.45 } : { height: 1.5, baseline: 1.07 };
}

/** Every text a document draws, without the bidirectional controls (no font draws them): what its fonts are made ready for. */
export function textOfDocument(document: PayerDocument): string {
  return [document.title, document.status, document.testMode ?? '', ...document.rows.flatMap((r) => [r.label, r.value])]
    .join('')
    .replace(CONTROLS, '');
}

/** The PDF of `document`, with the merchant's logo (./logo: PNG or JPEG bytes) when it has one. */
export async function renderPdf(document: PayerDocument, logo: Buffer | null, now: Date): Promise<Buffer> {
  await prepareFonts(textOfDocument(document), fontOrder(document.language));
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: document.language,
    displayTitle: true,
    info: {
      Title: document.title.replace(CONTROLS, ''),
      Author: document.merchantName.replace(CONTROLS, ''),
      Creator: 'cryptogate',
      Producer: 'cryptogate',
      CreationDate: now,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  new Layout(pdf, document).draw(logo);
  pdf.end();
  return done;
}

/** Writes a document down the page from its start side, a new page when one is full. */
class Layout {
  private y = MARGIN;
  private readonly order: FontFamily[];
  private readonly registered = new Set<FontName>();

  constructor(
    private readonly pdf: PDFKit.PDFDocument,
    private readonly document: PayerDocument,
  ) {
    this.order = fontOrder(document.language);
  }

  draw(logo: Buffer | null): void {
    const { document } = this;
    if (logo) this.logo(logo);
    this.paragraph(document.title, { size: 18 });
    this.y += 4;
    this.paragraph(document.status, { size: 12, color: GREY });
    if (document.testMode) this.paragraph(document.testMode, { size: 10, color: '#b91c1c' });
    this.y += 12;
    this.pdf
      .moveTo(MARGIN, this.y)
      .lineTo(A4.width - MARGIN, this.y)
      .lineWidth(0.5)
      .strokeColor('#d4d4d8')
      .stroke();
    this.y += 12;
    for (const row of document.rows) {
      this.paragraph(row.label, { size: 9, color: GREY });
      this.paragraph(row.value, {
        size: 11,
        // A value without letters (an item's "2 × $30.00 = $60.00") reads left to right, as the page's <bdi>.
        direction: row.code ? 'ltr' : directionOfText(row.value, 'ltr'),
        href: row.href,
      });
      this.y += 8;
    }
  }

  /** The logo in a 160 × 48 pt box on the start side, scaled down to fit, never up. */
  private logo(bytes: Buffer): void {
    const rtl = this.document.direction === 'rtl';
    try {
      this.pdf.image(bytes, rtl ? A4.width - MARGIN - 160 : MARGIN, this.y, {
        fit: [160, 48],
        ...(rtl ? { align: 'right' as const } : {}),
        valign: 'center',
      });
    } catch {
      return; // bytes pdfkit cannot read after all: the receipt carries the name only
    }
    this.y += 48 + 16;
  }

  /** A text wrapped to the content's width, each line aligned to the document's start side. */
  private paragraph(
    text: string,
    options: { size: number; color?: string; direction?: BaseDirection; href?: string | null },
  ): void {
    const direction = options.direction ?? this.document.direction;
    const metrics = lineMetrics(this.document.language);
    const lineHeight = options.size * metrics.height;
    for (const line of wrapText(text, CONTENT, (t) => this.width(t, options.size))) {
      if (this.y + lineHeight > A4.height - MARGIN) {
        this.pdf.addPage();
        this.y = MARGIN;
      }
      const runs = visualRuns<FontName>(line, direction, (c, previous) => fontFor(c, this.order, previous));
      const widths = runs.map((run) => this.runWidth(run.text, run.font, options.size));
      const total = widths.reduce((a, b) => a + b, 0);
      let x = this.document.direction === 'rtl' ? A4.width - MARGIN - total : MARGIN;
      const baseline = this.y + options.size * metrics.baseline;
      runs.forEach((run, i) => {
        this.use(run.font, options.size);
        // `features` makes pdfkit lay out the run whole, not word by word: fontkit reverses a
        // right-to-left run as one, so its words keep their order.
        this.pdf
          .fillColor(options.color ?? INK)
          .text(run.text, x, baseline, { lineBreak: false, features: [], baseline: 'alphabetic' });
        const textLayer = run.font && loadFont(run.font).textLayer;
        if (textLayer) this.textLayer(run.text, textLayer, x, baseline, widths[i]!, options.size);
        x += widths[i]!;
      });
      if (options.href) this.pdf.link(x - total, this.y, total, lineHeight, options.href);
      this.y += lineHeight;
    }
  }

  /**
   * The text of a run whose glyphs carry none (./shaping), drawn again over it, invisible (text
   * rendering mode 3, as a scanned page's recognised text) and stretched to the run's width, in a
   * font whose glyphs read back in order: what a reader selects, copies and extracts.
   */
  private textLayer(text: string, font: FontName, x: number, baseline: number, width: number, size: number): void {
    this.use(font, size);
    const natural = this.pdf.widthOfString(text, { features: [] });
    // pdfkit draws `horizontalScaling` (the Tz operator); its types do not list it.
    const stretched = {
      lineBreak: false,
      features: [],
      baseline: 'alphabetic' as const,
      horizontalScaling: natural > 0 ? (100 * width) / natural : 100,
    };
    this.pdf.save();
    this.pdf.addContent('3 Tr');
    this.pdf.text(text, x, baseline, stretched);
    this.pdf.restore();
  }

  /** A logical line's width: the sum of its runs of one font (the order of the runs does not change it). */
  private width(text: string, size: number): number {
    let total = 0;
    let run = '';
    let font = null as FontName | null;
    for (const char of text.replace(CONTROLS, '')) {
      const own = fontFor(char.codePointAt(0)!, this.order, font);
      if (own !== font && run) {
        total += this.runWidth(run, font, size);
        run = '';
      }
      font = own;
      run += char;
    }
    return run ? total + this.runWidth(run, font, size) : total;
  }

  private runWidth(text: string, font: FontName | null, size: number): number {
    this.use(font, size);
    return this.pdf.widthOfString(text, { features: [] });
  }

  /** Selects a font, embedding it on first use; a character no font has takes MISSING_GLYPH_FONT's missing glyph. */
  private use(font: FontName | null, size: number): void {
    const name = font ?? MISSING_GLYPH_FONT;
    if (!this.registered.has(name)) {
      // pdfkit takes a fontkit font as well as bytes (its PDFFontFactory.open; its types say bytes
      // only): every document shares one parsed font and its layout caches, not a parse each.
      this.pdf.registerFont(name, loadFont(name).face as unknown as Buffer);
      this.registered.add(name);
    }
    this.pdf.font(name).fontSize(size);
  }
}

/**
 * The headers of a PDF answer: shown in the browser (a download when saved), never cached (a
 * receipt is fetched by its capability, docs/decisions/076), never guessed at as another type.
 */
export function pdfHeaders(filename: string): Record<string, string> {
  return {
    'content-type': 'application/pdf',
    'content-disposition': `inline; filename="${filename.replace(/[^\w.-]/g, '_')}"`,
    'cache-control': 'private, no-store',
  };
}
