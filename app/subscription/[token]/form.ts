/**
 * What the subscriber page's form posts share: reading a small form (bad input is an empty form,
 * never a server error) and answering with a redirect that keeps the page's language.
 */
import { isLanguage } from '@/lib/pay/i18n';

const MAX_FORM_BYTES = 4096;

export async function readForm(request: Request): Promise<Record<string, string>> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_FORM_BYTES) return {};
  try {
    return Object.fromEntries(
      [...(await request.formData()).entries()].flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
    );
  } catch {
    return {};
  }
}

/** A 303 to `path` with `query` and the form's language. */
export function redirectTo(path: string, fields: Record<string, string>, query: Record<string, string> = {}): Response {
  const params = new URLSearchParams(query);
  if (fields.lang !== undefined && isLanguage(fields.lang)) params.set('lang', fields.lang);
  const search = params.size > 0 ? `?${params}` : '';
  return new Response(null, { status: 303, headers: { location: `${path}${search}`, 'cache-control': 'no-store' } });
}
