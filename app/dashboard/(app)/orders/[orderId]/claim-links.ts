/**
 * The value of the cookie that hands fresh claim links to their order's page (./refund-cookie.ts):
 * each refund's id and its link, as pairs separated by spaces (neither a UUID nor a URL holds one).
 * Pure, so that its bound and its parsing are unit-tested (tests/claim-links.test.ts).
 */
import { z } from 'zod';

/**
 * What one cookie may hold, encoded (a browser keeps 4,096 bytes of name, value and attributes):
 * about 28 links. A decision that makes more refunds hands over the first ones; the others'
 * "Reopen claim" gives theirs (docs/decisions/102).
 */
export const MOST_ENCODED_CHARACTERS = 3_600;

/** The cookie's value for these refunds' links, as many as fit, in order; null when none does. */
export function claimLinksValue(made: readonly { refund: { id: string }; claimUrl: string }[]): string | null {
  const pairs: string[] = [];
  for (const { refund, claimUrl } of made) {
    const pair = `${refund.id} ${claimUrl}`;
    if (encodeURIComponent([...pairs, pair].join(' ')).length > MOST_ENCODED_CHARACTERS) break;
    pairs.push(pair);
  }
  return pairs.length === 0 ? null : pairs.join(' ');
}

/** A web link of printable ASCII only (a claim link is the gateway's base URL and a base64url token). */
const claimLink = z.url({ protocol: /^https?$/ }).regex(/^[\x21-\x7e]+$/);

/** The claim links a cookie's value carries, by refund id: what `claimLinksValue` wrote, anything else ignored. */
export function claimLinksOf(value: string | undefined): Map<string, string> {
  const links = new Map<string, string>();
  const words = (value ?? '').split(' ');
  for (let i = 0; i + 1 < words.length; i += 2) {
    const id = z.uuid().safeParse(words[i]);
    const url = claimLink.safeParse(words[i + 1]);
    if (id.success && url.success) links.set(id.data, url.data);
  }
  return links;
}
