/**
 * Calls an operation and checks its answer against the wire contract twice: the operation's zod
 * response schema (lib/protocol) and the OpenAPI document served at /api-gateway/openapi.json,
 * with a JSON Schema validator (Ajv, draft 2020-12 as OpenAPI 3.1 says). Every answer of the
 * contract suites goes through here, so the document cannot drift from what the gateway answers.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import {
  API_ERRORS,
  errorEnvelope,
  openApiDocument,
  OPERATION_ALIASES,
  OPERATIONS,
  type OperationName,
} from '@/lib/protocol';
import { callInProcess } from './api-in-process';
import { call, type ApiAnswer, type Keys } from './gateway';

const document = openApiDocument();
// Formats (date-time, uri, email) come with the patterns zod writes beside them.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

function operationOf(path: string): OperationName | undefined {
  const name = path.replace(/\/$/, '');
  return name in OPERATIONS ? (name as OperationName) : OPERATION_ALIASES[name];
}

/** The document's schema of the answer `status` of `path`; fails the test when the document has none. */
function documented(path: string, status: number): ValidateFunction {
  const key = `${path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const operation = document.paths[`/api-gateway/${path.replace(/\/$/, '')}`]?.post;
    const schema = operation?.responses[String(status)]?.content['application/json'].schema;
    expect(schema, `openapi.json documents ${status} for ${path}`).toBeDefined();
    // The error schema is a $ref into the document's components.
    validate = ajv.compile({ ...schema, components: document.components });
    validators.set(key, validate);
  }
  return validate;
}

/** Checks an answer of `path` against the OpenAPI document (paths it does not describe are not checked). */
export function expectDocumented(path: string, answer: ApiAnswer): void {
  if (!document.paths[`/api-gateway/${path.replace(/\/$/, '')}`]) return;
  const validate = documented(path, answer.status);
  expect(validate(answer.body), `${path} ${answer.status}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

/** Checks an answer of `path` against its operation's zod schema (or the error table) and the OpenAPI document. */
function expectContract(path: string, answer: ApiAnswer): void {
  const operation = operationOf(path);
  if (answer.status === 200 && operation) {
    const parsed = OPERATIONS[operation].response.safeParse(answer.body.response);
    expect(parsed.success, `${path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  } else if (answer.status !== 200) {
    expect(errorEnvelope.safeParse(answer.body).success, JSON.stringify(answer.body)).toBe(true);
    expect(Object.keys(API_ERRORS)).toContain(answer.body.error.name);
  }
  expectDocumented(path, answer);
}

export async function checkedCall(
  gateway: { baseUrl: string },
  path: string,
  body: Record<string, unknown>,
  keys: Keys,
): Promise<ApiAnswer> {
  const answer = await call(gateway, path, body, keys);
  expectContract(path, answer);
  return answer;
}

/** `checkedCall` in this process (tests/support/api-in-process.ts: the HTTP front's wrapper, no build). */
export async function checkedCallInProcess(
  path: string,
  body: Record<string, unknown>,
  keys: Keys,
): Promise<Omit<ApiAnswer, 'headers'>> {
  const answer = await callInProcess(path, body, keys);
  expectContract(path, { ...answer, headers: new Headers() });
  return answer;
}
