/**
 * The signer's own small client of the merchant API (`--from-api`, docs/decisions/094): it reads a
 * plan with a key of the signing-plans scope and posts the signed transaction back. It signs
 * requests as the wire protocol says (HMAC-SHA256 of the raw body with the key's private half, a
 * fresh nonce), follows no redirect, and checks every answer against the wire contract. What it
 * reads is only a plan: the signer checks it exactly as a plan read from a file, and what it sends
 * is the plan's id and the signed transaction, never the seed or a key.
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { errorEnvelope, planSubmittedResponse, successEnvelope, type PlanSubmitted } from '../../lib/protocol';

/** The API key file the merchant names: a key of the signing-plans scope (its private half signs requests only). */
export const apiKeyFileSchema = z.object({
  publicKey: z.string().min(1),
  privateKey: z.string().min(1),
});
export type ApiKeyFile = z.infer<typeof apiKeyFileSchema>;

export class GatewayRefusal extends Error {
  override name = 'GatewayRefusal';
}

/** The gateway the signer talks to: its base URL, the key, and the fetch to use (the platform's; a test's in-process one). */
export interface GatewayClient {
  baseUrl: string;
  key: ApiKeyFile;
  fetch?: typeof fetch;
}

let lastNonce = 0;

async function post<S extends z.ZodType>(
  { baseUrl, key, fetch: send = fetch }: GatewayClient,
  operation: string,
  fields: Record<string, unknown>,
  answer: S,
): Promise<z.output<S>> {
  lastNonce = Math.max(lastNonce + 1, Date.now() * 1000);
  const body = JSON.stringify({ ...fields, nonce: lastNonce });
  const response = await send(`${baseUrl.replace(/\/+$/, '')}/api-gateway/${operation}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-public-key': key.publicKey,
      'x-api-signature': createHmac('sha256', key.privateKey).update(body, 'utf8').digest('hex'),
    },
    body,
    redirect: 'error',
    signal: AbortSignal.timeout(60_000),
  });
  let json: unknown;
  try {
    json = JSON.parse(await response.text());
  } catch {
    throw new GatewayRefusal(`${operation}: the gateway answered HTTP ${response.status} without JSON`);
  }
  const failure = errorEnvelope.safeParse(json);
  if (failure.success)
    throw new GatewayRefusal(`${operation}: ${failure.data.error.name}: ${failure.data.error.message}`);
  const success = successEnvelope.safeParse(json);
  const parsed = success.success ? answer.safeParse(success.data.response) : null;
  if (!parsed?.success) throw new GatewayRefusal(`${operation}: the answer is not what the wire contract says`);
  return parsed.data as z.output<S>;
}

/** Which plan the merchant asked for: a collection plan by its id, or a refund's plan (`refund-plans/get`) by the refund's id. */
export type PlanAsked = { kind: 'collection'; planId: string } | { kind: 'refund'; refundId: string };

/**
 * The plan asked for as the gateway answers it, as text: the signer parses and checks it as a
 * file's (./from-api.ts checks first that it is the plan asked for).
 */
export async function readPlan(client: GatewayClient, asked: PlanAsked): Promise<string> {
  const answer =
    asked.kind === 'collection'
      ? await post(client, 'collections/get', { id: asked.planId }, z.unknown())
      : await post(client, 'refund-plans/get', { refundId: asked.refundId }, z.unknown());
  return JSON.stringify(answer);
}

/** Hands the signed transaction (hex) to the gateway, which takes only the plan's own transaction and broadcasts it. */
export function submitPlan(client: GatewayClient, id: string, rawTx: string): Promise<PlanSubmitted> {
  return post(client, 'collections/submit', { id, transaction: rawTx }, planSubmittedResponse);
}
