import 'server-only';
import { headers } from 'next/headers';

const FALLBACK = 'en-US';

/**
 * The locale the dashboard writes numbers and prices in: the first language of the browser's
 * Accept-Language that this runtime's Intl knows, else en-US. The header is the browser's, so
 * anything malformed in it just falls back.
 */
export async function viewerLocale(): Promise<string> {
  const first = (await headers()).get('accept-language')?.split(',')[0]?.split(';')[0]?.trim();
  if (!first || first === '*') return FALLBACK;
  try {
    return Intl.NumberFormat.supportedLocalesOf(first)[0] ?? FALLBACK;
  } catch {
    return FALLBACK;
  }
}
