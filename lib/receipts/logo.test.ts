/**
 * A logo of every type a merchant may upload reaches the PDF and the mail as PNG or JPEG (./logo,
 * docs/decisions/080 and 095), and one whose header claims too many pixels is never decoded.
 */
import { GifWriter } from 'omggif';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { LOGO_MAX_SIDE, logoSize, mailLogoOf, pdfLogoOf } from './logo';

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** A 3 × 2 GIF, every pixel red, in two frames (an animated logo: the first is drawn). */
function gif(width = 3, height = 2): Buffer {
  const out = Buffer.alloc(1024);
  const writer = new GifWriter(out, width, height, { palette: [0xff0000, 0x0000ff] });
  writer.addFrame(0, 0, width, height, new Array(width * height).fill(0));
  writer.addFrame(0, 0, width, height, new Array(width * height).fill(1));
  return out.subarray(0, writer.end());
}

// libwebp's smallest images (1 × 1): lossy (VP8), lossless (VP8L), and extended with alpha (VP8X).
const WEBP = {
  lossy: 'UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA',
  lossless: 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==',
  alpha:
    'UklGRkoAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAwAAAARBxAR/Q9ERP8DAABWUDggGAAAABQBAJ0BKgEAAQAAAP4AAA3AAP7mtQAAAA==',
};

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('a logo in a PDF', () => {
  it('a GIF: its first frame as a PNG', () => {
    const out = PNG.sync.read(pdfLogoOf(dataUrl('image/gif', gif()))!);
    expect([out.width, out.height]).toEqual([3, 2]);
    expect([...out.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
  });

  it('a WebP, lossy, lossless or with alpha: a PNG of its size', () => {
    for (const webp of Object.values(WEBP)) {
      const bytes = pdfLogoOf(`data:image/webp;base64,${webp}`);
      expect(bytes).not.toBeNull();
      expect([PNG.sync.read(bytes!).width, PNG.sync.read(bytes!).height]).toEqual([1, 1]);
    }
  });

  it('PNG and JPEG as uploaded; damaged bytes or no logo: none (the name alone)', () => {
    expect(pdfLogoOf(`data:image/png;base64,${PNG_1X1}`)).toEqual(Buffer.from(PNG_1X1, 'base64'));
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
    expect(pdfLogoOf(dataUrl('image/jpeg', jpeg))).toEqual(jpeg);
    expect(pdfLogoOf(null)).toBeNull();
    expect(pdfLogoOf('data:image/svg+xml;base64,PHN2Zz4=')).toBeNull();
    expect(pdfLogoOf(dataUrl('image/gif', gif().subarray(0, 20)))).toBeNull();
    const webp = Buffer.from(WEBP.lossy, 'base64');
    expect(pdfLogoOf(dataUrl('image/webp', Buffer.concat([webp.subarray(0, 30), Buffer.alloc(8)])))).toBeNull();
  });

  it('never decodes one whose header claims more than LOGO_MAX_SIDE pixels a side', () => {
    const big = LOGO_MAX_SIDE + 1;
    const tallGif = gif();
    tallGif.writeUInt16LE(big, 8);
    expect(logoSize(tallGif, 'image/gif')).toEqual({ width: 3, height: big });
    expect(pdfLogoOf(dataUrl('image/gif', tallGif))).toBeNull();
    const widePng = Buffer.from(PNG_1X1, 'base64');
    widePng.writeUInt32BE(big, 16);
    expect(pdfLogoOf(dataUrl('image/png', widePng))).toBeNull();
    for (const webp of Object.values(WEBP))
      expect(logoSize(Buffer.from(webp, 'base64'), 'image/webp')).toEqual({ width: 1, height: 1 });
    // VP8X's canvas is 24 bits a side: 16,777,216 pixels wide said in 100 bytes.
    const wideWebp = Buffer.from(WEBP.alpha, 'base64');
    wideWebp.writeUIntLE(0xffffff, 24, 3);
    expect(pdfLogoOf(dataUrl('image/webp', wideWebp))).toBeNull();
  });
});

describe('a logo in a mail', () => {
  it('a WebP or GIF is attached as a PNG, which every mail client shows (Outlook shows no WebP)', () => {
    for (const webp of Object.values(WEBP)) {
      const logo = mailLogoOf(`data:image/webp;base64,${webp}`)!;
      expect(logo).toMatch(/^data:image\/png;base64,/);
      const png = PNG.sync.read(Buffer.from(logo.split(',')[1]!, 'base64'));
      expect([png.width, png.height]).toEqual([1, 1]);
    }
    expect(mailLogoOf(dataUrl('image/gif', gif()))).toMatch(/^data:image\/png;base64,/);
  });

  it('PNG and JPEG as uploaded; none for no logo or one that does not decode', () => {
    expect(mailLogoOf(`data:image/png;base64,${PNG_1X1}`)).toBe(`data:image/png;base64,${PNG_1X1}`);
    const jpeg = dataUrl('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
    expect(mailLogoOf(jpeg)).toBe(jpeg);
    expect(mailLogoOf(null)).toBeNull();
    expect(mailLogoOf(dataUrl('image/gif', gif().subarray(0, 20)))).toBeNull();
  });
});
