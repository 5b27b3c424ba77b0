/**
 * The rules of what a merchant may put on its payers' pages (dashboard settings): a logo, an
 * accent colour and block explorer links. Pure zod schemas, unit-tested; lib/merchants/settings.ts
 * stores what they accept.
 */
import { z } from 'zod';
import { NETWORKS } from '../catalog';

export const LOGO_MAX_BYTES = 100 * 1024;

/**
 * The image types a logo may be, told by their first bytes: the file name and the browser's
 * declared type are the uploader's to choose. SVG is not among them: an SVG opened on its own
 * runs the script it carries.
 */
const IMAGE_SIGNATURES: readonly { type: string; matches: (b: Uint8Array) => boolean }[] = [
  { type: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', matches: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')) },
  // RIFF, a 4-byte length, then WEBP.
  { type: 'image/webp', matches: (b) => startsWith(b, ascii('RIFF')) && startsWith(b.subarray(8), ascii('WEBP')) },
];

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

/** The image type of `bytes` when it is one a logo may be, from its magic bytes. */
export function logoImageType(bytes: Uint8Array): string | undefined {
  return IMAGE_SIGNATURES.find((s) => s.matches(bytes))?.type;
}

/** An uploaded logo's bytes -> the data: URL stored and shown (the pages' CSP allows `img-src data:`). */
export const LOGO_UPLOAD = z
  .instanceof(Uint8Array)
  .refine((bytes) => bytes.length > 0, 'The logo file is empty.')
  .refine(
    (bytes) => bytes.length <= LOGO_MAX_BYTES,
    `The logo is larger than ${LOGO_MAX_BYTES / 1024} KB: make it smaller.`,
  )
  .transform((bytes, ctx) => {
    const type = logoImageType(bytes);
    if (!type) {
      ctx.addIssue({
        code: 'custom',
        message: 'The logo must be a PNG, JPEG, WebP or GIF image (SVG is not accepted).',
      });
      return z.NEVER;
    }
    return `data:${type};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
  });

/** WCAG 2 relative luminance of an sRGB `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** Contrast ratio of white text on `hex` (1 to 21). */
export function contrastWithWhite(hex: string): number {
  return 1.05 / (relativeLuminance(hex) + 0.05);
}

/** WCAG AA for normal text: the accent colour is the background of white button text. */
export const MIN_CONTRAST = 4.5;

/** An accent colour `#rrggbb`, lower-cased, on which white text passes WCAG AA. */
export const BRAND_COLOR = z
  .string()
  .trim()
  .regex(/^#[0-9a-f]{6}$/i, 'The accent colour must be written #rrggbb, e.g. #1d4ed8.')
  .transform((hex) => hex.toLowerCase())
  .superRefine((hex, ctx) => {
    const ratio = contrastWithWhite(hex);
    // Compared unrounded: 4.49 shown as "4.5" must still be refused.
    if (ratio < MIN_CONTRAST) {
      ctx.addIssue({
        code: 'custom',
        message: `White text on ${hex} has a contrast of ${(Math.floor(ratio * 100) / 100).toFixed(2)}:1, below the ${MIN_CONTRAST}:1 that WCAG AA asks for: choose a darker colour.`,
      });
    }
  });

export const EXPLORER_URL_MAX = 500;

/** A block explorer link template: https, with `{tx}` where the transaction hash goes. */
export const EXPLORER_TEMPLATE = z
  .string()
  .trim()
  .max(EXPLORER_URL_MAX, `An explorer URL has at most ${EXPLORER_URL_MAX} characters.`)
  .refine((template) => template.includes('{tx}'), 'An explorer URL must contain {tx} where the transaction hash goes.')
  .refine((template) => {
    try {
      // The hash goes in the path or query: the host must not depend on it.
      const url = new URL(template.replaceAll('{tx}', 'a'));
      const other = new URL(template.replaceAll('{tx}', 'b'));
      return url.protocol === 'https:' && url.origin === other.origin && !/\s/.test(template);
    } catch {
      return false;
    }
  }, 'An explorer URL must be an https:// address, e.g. https://explorer.example/tx/{tx}.');

export const NETWORK_NAMES = NETWORKS.map((network) => network.name);

/**
 * Explorer links per catalog network, as the settings form sends them: a template, or '' to go
 * back to the default link (the network's entry is removed).
 */
export const EXPLORER_URLS = z.partialRecord(
  z.enum(NETWORK_NAMES as [string, ...string[]]),
  emptyOr(EXPLORER_TEMPLATE),
);

/** The accent colour as the settings form sends it: `#rrggbb`, or '' for the default look (null). */
export const BRAND_COLOR_FIELD = emptyOr(BRAND_COLOR);

/** A form field that is either empty (null: the default) or valid by `schema`, with `schema`'s own messages. */
function emptyOr<T>(schema: z.ZodType<T, string>) {
  return z.string().transform((value, ctx): T | null => {
    if (value.trim() === '') return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });
}

export type ExplorerChanges = Partial<Record<string, string | null>>;
