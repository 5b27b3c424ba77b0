import { openApiDocument } from '@/lib/protocol';

// Generated once per process from the wire contract's schemas (lib/protocol/openapi.ts).
const body = JSON.stringify(openApiDocument());

/** The merchant API's OpenAPI 3.1 description: public, like the API reference it renders. */
export function GET(): Response {
  return new Response(body, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' },
  });
}
