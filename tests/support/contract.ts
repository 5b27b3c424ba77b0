/**
 * Calls an operation and checks its answer against the wire contract twice: the operation's zod
 * response schema (lib/protocol) and the OpenAPI document served at /api-gateway/openapi.json
 * (./contract-check.ts). Every answer of the contract suites goes through here, so the document
 * cannot drift from what the gateway answers.
 */
import { expectOnContract } from './contract-check';
import { call, type ApiAnswer, type Keys } from './gateway';

export { expectDocumented } from './contract-check';

export async function checkedCall(
  gateway: { baseUrl: string },
  path: string,
  body: Record<string, unknown>,
  keys: Keys,
): Promise<ApiAnswer> {
  const answer = await call(gateway, path, body, keys);
  expectOnContract(path, answer);
  return answer;
}
