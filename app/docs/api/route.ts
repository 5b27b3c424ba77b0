import { nonceOf } from '@/lib/security';
import { referencePage } from './reference';

/** The merchant API reference (./reference): public, drawn per request for its script nonce. */
export function GET(request: Request): Response {
  return new Response(referencePage(nonceOf(request.headers.get('content-security-policy'))), {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
