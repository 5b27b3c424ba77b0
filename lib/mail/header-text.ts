/**
 * Text that goes into a mail header (the subject, the sender's display name), made safe whatever
 * the merchant or the payer typed. A header ends at a line break, so a name holding one could add
 * headers of its own (`Bcc:`) or start the body; mail software also breaks lines at Unicode's
 * other line ends (U+0085, U+2028, U+2029) and some read look-alikes (a fullwidth colon, U+FF1A)
 * as their ASCII twin. Pure: unit-tested in header-text.test.ts, applied by ./compose to every
 * inserted value before nodemailer encodes the header (RFC 2047), which escapes the rest.
 */
import { z } from 'zod';

/** Longest header text kept: a subject line readers see whole (RFC 5322 advises 78 characters per line). */
export const HEADER_TEXT_MAX = 150;

// Controls (C0, DEL, C1 with U+0085), line and paragraph separators, and the format characters
// that reorder or hide text (bidi controls, zero-width joiners, BOM).
const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}\p{Cf}]+/gu;

/**
 * One line of text for a header: compatibility forms folded to their plain twins (NFKC: the
 * fullwidth colon becomes `:`, which is harmless inside an encoded header value), every line end,
 * control and format character replaced by a space, runs of spaces collapsed, cut at `max`.
 */
export function headerText(value: string, max = HEADER_TEXT_MAX): string {
  const line = value.normalize('NFKC').replace(BREAKING, ' ').replace(/\s+/gu, ' ').trim();
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join('')}…`;
}

// zod's e-mail rule (the one the API applies to payerEmail): ASCII letters, digits and a few
// signs, no spaces, no line ends, no look-alikes.
const MAILBOX = z.email().max(254);

/**
 * The address a message may go to, lower-cased; null for anything else. The API already refuses
 * such a payerEmail; this holds for every row, whatever wrote it.
 */
export function mailbox(value: string): string | null {
  const parsed = MAILBOX.safeParse(value);
  return parsed.success ? parsed.data.toLowerCase() : null;
}
