/**
 * FRAME_ANCESTORS: the sites allowed to show the payment page in an iframe (`?embed=1`), as the
 * CSP `frame-ancestors` sources they become. Pure (no zod, no Node API): the schema validates it
 * at start-up and proxy.ts reads it per request with the same function.
 *
 * Accepted entries, separated by commas or spaces: origins (`https://shop.example`,
 * `http://localhost:8080`), wildcard sub-domains (`https://*.shop.example`), or `*` (any site).
 * Nothing else, so that a value can never inject another CSP directive.
 */
const SOURCE = /^(\*|https?:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?)$/i;

export const FRAME_ANCESTORS_HINT =
  'must be origins such as https://shop.example or https://*.shop.example (comma or space separated), or *';

/** The sources, or null when an entry is not acceptable. Empty (unset) means none besides the gateway itself. */
export function parseFrameAncestors(value: string | undefined): string[] | null {
  const entries = (value ?? '').split(/[\s,]+/).filter(Boolean);
  return entries.every((entry) => SOURCE.test(entry)) ? entries.map((e) => e.toLowerCase()) : null;
}
