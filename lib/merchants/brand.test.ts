import { describe, expect, it } from 'vitest';
import { BRAND_COLOR, BRAND_COLOR_FIELD, contrastWithWhite, EXPLORER_URLS, LOGO_MAX_BYTES, LOGO_UPLOAD } from './brand';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)));

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR');
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF');
const GIF = bytes('GIF89a', [1, 0, 1, 0]);
const WEBP = bytes('RIFF', [36, 0, 0, 0], 'WEBPVP8 ');
const SVG = bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('logo upload', () => {
  it.each([
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/gif', GIF],
    ['image/webp', WEBP],
  ])('accepts %s by its magic bytes and stores a data: URL of that type', (type, image) => {
    const url = LOGO_UPLOAD.parse(image);
    expect(url).toBe(`data:${type};base64,${Buffer.from(image).toString('base64')}`);
  });

  it('refuses SVG, text and an image type announced only by its name', () => {
    for (const file of [SVG, bytes('hello.png'), bytes('RIFF', [0, 0, 0, 0], 'WAVE')]) {
      const result = LOGO_UPLOAD.safeParse(file);
      expect(result.success).toBe(false);
      expect(messages(result)).toEqual(['The logo must be a PNG, JPEG, WebP or GIF image (SVG is not accepted).']);
    }
  });

  it('refuses an empty file and one over 100 KB, and takes exactly 100 KB', () => {
    expect(messages(LOGO_UPLOAD.safeParse(new Uint8Array()))).toContain('The logo file is empty.');
    const image = (size: number) => {
      const b = new Uint8Array(size);
      b.set(PNG);
      return b;
    };
    expect(LOGO_UPLOAD.safeParse(image(LOGO_MAX_BYTES)).success).toBe(true);
    expect(messages(LOGO_UPLOAD.safeParse(image(LOGO_MAX_BYTES + 1)))).toEqual([
      'The logo is larger than 100 KB: make it smaller.',
    ]);
  });
});

describe('accent colour', () => {
  it('computes WCAG contrast with white text', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    // Tailwind's blue-700 and sky-500: published ratios 6.70 and 2.77.
    expect(contrastWithWhite('#1d4ed8')).toBeCloseTo(6.7, 1);
    expect(contrastWithWhite('#0ea5e9')).toBeCloseTo(2.77, 1);
  });

  it('accepts #rrggbb with enough contrast, lower-cased', () => {
    expect(BRAND_COLOR.parse(' #1D4ED8 ')).toBe('#1d4ed8');
    // #767676 is the lightest grey that passes 4.5:1 on white; #777777 fails (4.48).
    expect(BRAND_COLOR.parse('#767676')).toBe('#767676');
  });

  it('refuses a colour white text fails AA on, saying the ratio', () => {
    expect(messages(BRAND_COLOR.safeParse('#777777'))).toEqual([
      'White text on #777777 has a contrast of 4.47:1, below the 4.5:1 that WCAG AA asks for: choose a darker colour.',
    ]);
    expect(BRAND_COLOR.safeParse('#ffff00').success).toBe(false);
  });

  it('refuses anything but #rrggbb', () => {
    for (const value of ['1d4ed8', '#123', '#12345g', 'red', 'rgb(0,0,0)', '#1d4ed8; background: url(x)']) {
      expect(messages(BRAND_COLOR.safeParse(value))).toEqual([
        'The accent colour must be written #rrggbb, e.g. #1d4ed8.',
      ]);
    }
  });
});

describe('explorer templates', () => {
  it('takes https templates with {tx} per catalog network, and an empty value as a reset', () => {
    expect(EXPLORER_URLS.parse({ bitcoin: ' https://mempool.space/tx/{tx} ', ethereum: '', litecoin: '  ' })).toEqual({
      bitcoin: 'https://mempool.space/tx/{tx}',
      ethereum: null,
      litecoin: null,
    });
  });

  it('refuses a template without {tx}, without https, or with a script scheme', () => {
    expect(messages(EXPLORER_URLS.safeParse({ bitcoin: 'https://mempool.space/tx/' }))).toEqual([
      'An explorer URL must contain {tx} where the transaction hash goes.',
    ]);
    for (const template of [
      'http://mempool.space/tx/{tx}',
      'javascript:alert(1)//{tx}',
      'https://{tx}',
      'https:// a.example/{tx}',
      '//mempool.space/tx/{tx}',
    ]) {
      expect(EXPLORER_URLS.safeParse({ bitcoin: template }).success, template).toBe(false);
    }
  });

  it('refuses a network outside the catalog and overlong templates', () => {
    expect(EXPLORER_URLS.safeParse({ notachain: 'https://x.example/{tx}' }).success).toBe(false);
    expect(EXPLORER_URLS.safeParse({ bitcoin: `https://x.example/${'a'.repeat(500)}/{tx}` }).success).toBe(false);
  });
});

describe('accent colour field', () => {
  it('takes empty as the default look and says why a bad colour is refused', () => {
    expect(BRAND_COLOR_FIELD.parse('  ')).toBeNull();
    expect(BRAND_COLOR_FIELD.parse('#1D4ED8')).toBe('#1d4ed8');
    expect(messages(BRAND_COLOR_FIELD.safeParse('#ffff00'))).toEqual([
      'White text on #ffff00 has a contrast of 1.07:1, below the 4.5:1 that WCAG AA asks for: choose a darker colour.',
    ]);
  });
});
