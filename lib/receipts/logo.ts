import 'server-only';
/**
 * The merchant's logo as a PDF draws it (docs/decisions/080). pdfkit reads PNG and JPEG only; a
 * merchant may upload GIF and WebP too (lib/merchants) and expects the logo it sees on its pages
 * in its receipts as well: a GIF (its first frame) or a WebP is decoded here and written as a PNG.
 * Pure JavaScript and WebAssembly from npm (omggif, @cwasm/webp's libwebp, pngjs): nothing to build.
 */
import { decode as decodeWebp } from '@cwasm/webp';
import { GifReader } from 'omggif';
import { PNG } from 'pngjs';
import { logoImageType } from '../merchants';

/**
 * The widest and tallest logo decoded, in pixels. A logo is drawn in a 160 × 48 pt box; a 100 KB
 * file may claim 16,383 pixels a side, a gigabyte of pixels once decoded. Told from the header,
 * before any pixel is decoded.
 */
export const LOGO_MAX_SIDE = 2048;

/** Width and height from a PNG's IHDR, a GIF's screen or a WebP's first chunk; null when unreadable. */
export function logoSize(bytes: Buffer, type: string): { width: number; height: number } | null {
  if (type === 'image/png' && bytes.length >= 24)
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (type === 'image/gif' && bytes.length >= 10)
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (type === 'image/webp' && bytes.length >= 30) {
    const chunk = bytes.toString('latin1', 12, 16);
    // VP8 (lossy): 14-bit sizes after the key frame's start code.
    if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    // VP8L (lossless): 14-bit width - 1 and height - 1 after its signature byte.
    if (chunk === 'VP8L') {
      const bits = bytes.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    // VP8X (extended): the canvas, 24-bit width - 1 and height - 1.
    if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  return null;
}

function png(width: number, height: number, rgba: Uint8Array): Buffer {
  const image = new PNG({ width, height });
  image.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  return PNG.sync.write(image);
}

/**
 * The PNG or JPEG bytes of a brand logo (a data: URL, lib/merchants checks it on upload), or null:
 * no logo, one too large to decode, or bytes that do not decode (the document then carries the
 * merchant's name only). PNG and JPEG as they are. What pdfkit reads, and what every mail client
 * shows (Outlook's desktop client shows no WebP: docs/decisions/095).
 */
export function pdfLogoOf(dataUrl: string | null): Buffer | null {
  const match = dataUrl?.match(/^data:image\/(?:png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/);
  if (!match) return null;
  const bytes = Buffer.from(match[1]!, 'base64');
  const type = logoImageType(bytes);
  if (type === 'image/jpeg') return bytes;
  if (!type) return null;
  const size = logoSize(bytes, type);
  if (!size || size.width < 1 || size.height < 1 || size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE)
    return null;
  try {
    if (type === 'image/png') return bytes;
    if (type === 'image/gif') {
      const gif = new GifReader(bytes);
      const rgba = new Uint8Array(gif.width * gif.height * 4);
      gif.decodeAndBlitFrameRGBA(0, rgba);
      return png(gif.width, gif.height, rgba);
    }
    const webp = decodeWebp(bytes);
    return png(webp.width, webp.height, webp.data as unknown as Uint8Array);
  } catch {
    return null; // damaged bytes: the name alone, as for no logo
  }
}

/** The last logos made ready for mail, by their data: URL: a merchant's mails decode its WebP once, not per message. */
const mailLogos = new Map<string, string | null>();
const MAIL_LOGOS_KEPT = 16;

/**
 * A brand logo as a payer mail attaches it: a PNG or JPEG data: URL (./pdfLogoOf's bytes), or
 * null when there is none to show. A WebP or GIF upload is converted here, at send, so a logo
 * uploaded before this rule reaches Outlook too.
 */
export function mailLogoOf(dataUrl: string | null): string | null {
  if (!dataUrl) return null;
  const kept = mailLogos.get(dataUrl);
  if (kept !== undefined) return kept;
  const bytes = pdfLogoOf(dataUrl);
  const logo = bytes ? `data:${logoImageType(bytes)};base64,${bytes.toString('base64')}` : null;
  if (mailLogos.size >= MAIL_LOGOS_KEPT) mailLogos.delete(mailLogos.keys().next().value!);
  mailLogos.set(dataUrl, logo);
  return logo;
}
