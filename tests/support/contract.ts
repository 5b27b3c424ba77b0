/**
 * Calls an operation and checks its answer against the wire contract twice: the operation's zod
 * response schema (lib/protocol) and the OpenAPI document served at /api-gateway/openapi.json
 * (./contract-check.ts). Every answer of the contract suites goes through here, so the document
 * cannot drift from what the gateway answers.
 */
import { callInProcess } from './api-in-process';
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

/** `checkedCall` in this process (tests/support/api-in-process.ts: the HTTP front's wrapper, no build). */
export async function checkedCallInProcess(
  path: string,
  body: Record<string, unknown>,
  keys: Keys,
): Promise<Omit<ApiAnswer, 'headers'>> {
  const answer = await callInProcess(path, body, keys);
  expectOnContract(path, answer);
  return answer;
}
