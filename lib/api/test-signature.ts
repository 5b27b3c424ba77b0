import 'server-only';
import type { TestSignatureResult } from '../protocol';
import { consumeNonce } from './nonces';
import { readNonce, signBody, type RequestContext } from './route';

const MISMATCH =
  'x-api-signature does not match: expected the lower-case hex HMAC-SHA256 of the raw request body, keyed with the private key';

/**
 * test-signature tells a caller whether its signature matched and what is wrong.
 *
 * It never reveals the signature of a body whose caller could not sign it: webhooks carry
 * exactly that HMAC in x-api-signature, so the expected signature of a chosen body would let
 * anyone who knows a public key forge a webhook (docs/decisions/014). `signature` and
 * `receivedBody` are answered only when the request was signed correctly, that is when the
 * caller computed them itself; nothing is written otherwise.
 */
export async function testSignature(ctx: RequestContext): Promise<TestSignatureResult> {
  if (!ctx.signatureValid) return { checkSignatureResult: false, errors: [MISMATCH] };
  const errors: string[] = [];
  const nonce = readNonce(ctx.json);
  if ('problem' in nonce) errors.push(`nonce ${nonce.problem}`);
  else if (!(await consumeNonce(ctx.db, ctx.key.keyId, nonce.nonce)))
    errors.push('nonce was already used with this key');
  return {
    checkSignatureResult: true,
    errors,
    signature: signBody(ctx.key.secret, ctx.rawBody),
    receivedBody: ctx.rawBody.toString('utf8'),
  };
}
