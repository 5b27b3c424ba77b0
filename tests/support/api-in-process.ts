import type { Database } from '@/lib/db/client';
import { setProcessSlot } from '@/lib/process';
import { freshNonce, sign, type ApiAnswer, type Keys } from './gateway';

/**
 * A merchant API operation called in this process, through the same wrapper the HTTP front uses
 * (signature, nonce, scope, body limit, zod, envelope), on `db`: for files that test the gateway's
 * storage on both databases without a production build. Over HTTP, tests/support/gateway.ts.
 */
export function useDatabaseForApi(db: Database): void {
  setProcessSlot('database', Promise.resolve(db));
}

export async function callInProcess(
  path: string,
  body: Record<string, unknown>,
  keys: Keys,
  clientAddress = '127.0.0.1',
): Promise<Omit<ApiAnswer, 'headers'>> {
  const { API_PATHS } = await import('@/lib/api');
  const operation = API_PATHS.get(path);
  if (!operation) throw new Error(`no operation ${path}`);
  const raw = JSON.stringify({ nonce: freshNonce(), ...body });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(raw)),
    'x-api-public-key': keys.publicKey,
    'x-api-signature': sign(keys.privateKey, raw),
  };
  const reply = await operation({
    header: (name) => headers[name],
    clientAddress,
    readBody: async () => Buffer.from(raw),
  });
  return { status: reply.status, body: JSON.parse(reply.body) };
}

/**
 * A `fetch` that answers `…/api-gateway/<operation>` in this process (as `callInProcess`), for a
 * client under test that signs its own requests: the signer's (scripts/signer/api.ts).
 */
export const inProcessFetch: typeof fetch = async (input, init) => {
  const { API_PATHS } = await import('@/lib/api');
  const path = new URL(String(input)).pathname.replace(/^\/api-gateway\//, '');
  const operation = API_PATHS.get(path);
  if (!operation) throw new Error(`no operation ${path}`);
  const headers = new Headers(init?.headers);
  const raw = Buffer.from(String(init?.body ?? ''));
  headers.set('content-length', String(raw.length));
  const reply = await operation({
    header: (name) => headers.get(name) ?? undefined,
    clientAddress: '127.0.0.1',
    readBody: async () => raw,
  });
  return new Response(reply.body, { status: reply.status, headers: { 'content-type': 'application/json' } });
};
