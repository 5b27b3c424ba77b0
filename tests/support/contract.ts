/**
 * Calls an operation and checks its answer against the wire contract: a success against the
 * operation's response schema (lib/protocol), an error against the error envelope with a name of
 * the error table.
 */
import { expect } from 'vitest';
import { API_ERRORS, errorEnvelope, OPERATION_ALIASES, OPERATIONS, type OperationName } from '@/lib/protocol';
import { call, type ApiAnswer, type Keys } from './gateway';

function operationOf(path: string): OperationName | undefined {
  const name = path.replace(/\/$/, '');
  return name in OPERATIONS ? (name as OperationName) : OPERATION_ALIASES[name];
}

export async function checkedCall(gateway: { baseUrl: string }, path: string, body: Record<string, unknown>, keys: Keys): Promise<ApiAnswer> {
  const answer = await call(gateway, path, body, keys);
  const operation = operationOf(path);
  if (answer.status === 200 && operation) {
    const parsed = OPERATIONS[operation].response.safeParse(answer.body.response);
    expect(parsed.success, `${path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  } else if (answer.status !== 200) {
    expect(errorEnvelope.safeParse(answer.body).success, JSON.stringify(answer.body)).toBe(true);
    expect(Object.keys(API_ERRORS)).toContain(answer.body.error.name);
  }
  return answer;
}
