import 'server-only';
import type { Queryable } from '../db';
import { consumeNonce } from './nonces';
import { readNonce, signBody, type RequestContext } from './route';

/**
 * test-signature explains a signature: whether it matched, what is wrong, and the signature
 * the gateway expected for the exact bytes received.
 *
 * The expected signature is a valid signature of that body, so this must not become a signing
 * oracle: it is revealed only for a body with a fresh nonce, and that nonce is spent here and
 * kept for good (created_at 'infinity' escapes pruning), so the revealed signature can never be
 * accepted by another operation.
 */
export async function testSignature(ctx: RequestContext) {
  const errors: string[] = [];
  const nonce = readNonce(ctx.json);
  let reveal = false;
  if ('problem' in nonce) errors.push(`nonce ${nonce.problem}`);
  else if (!(await spendForever(ctx.db, ctx.key.keyId, nonce.nonce))) errors.push('nonce was already used with this key');
  else reveal = true;
  if (!ctx.signatureValid) {
    errors.push('x-api-signature does not match: expected the lower-case hex HMAC-SHA256 of the raw request body, keyed with the private key');
  }
  return {
    checkSignatureResult: ctx.signatureValid,
    errors,
    signature: reveal ? signBody(ctx.key.secret, ctx.rawBody) : null,
    receivedBody: ctx.rawBody.toString('utf8'),
  };
}

async function spendForever(db: Queryable, keyId: string, nonce: string): Promise<boolean> {
  if (!(await consumeNonce(db, keyId, nonce))) return false;
  await db.query(`update api_nonces set created_at = 'infinity' where key_id = $1 and nonce = $2`, [keyId, nonce]);
  return true;
}
