/**
 * The wire contract's check of one answer, with no gateway: the operation's zod response schema
 * (lib/protocol) and the OpenAPI document served at /api-gateway/openapi.json, with a JSON Schema
 * validator (Ajv, draft 2020-12 as OpenAPI 3.1 says). The gateway's answers (./contract.ts) and
 * the document's own examples (tests/openapi-examples.test.ts) go through the same check.
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

const document = openApiDocument();
// Formats (date-time, uri, email) come with the patterns zod writes beside them.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

/** An answer as the checks read it: its HTTP status and its JSON body (its headers are not checked). */
export interface CheckedAnswer {
  status: number;
  headers?: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body, checked below
  body: any;
}

export function operationOf(path: string): OperationName | undefined {
  const name = path.replace(/\/$/, '');
  return name in OPERATIONS ? (name as OperationName) : OPERATION_ALIASES[name];
}

/** The document's schema of the answer `status` of `path`; fails the test when the document has none. */
function documented(path: string, status: number): ValidateFunction {
  const operation = document.paths[`/api-gateway/${path.replace(/\/$/, '')}`]?.post;
  const schema = operation?.responses[String(status)]?.content['application/json'].schema;
  expect(schema, `openapi.json documents ${status} for ${path}`).toBeDefined();
  // Every error answer is the one Error schema: compiled once.
  const key = typeof schema!.$ref === 'string' ? schema!.$ref : `${path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    // The error schema is a $ref into the document's components.
    validate = ajv.compile({ ...schema, components: document.components });
    validators.set(key, validate);
  }
  return validate;
}

/** Checks an answer of `path` against the OpenAPI document (paths it does not describe are not checked). */
export function expectDocumented(path: string, answer: CheckedAnswer): void {
  if (!document.paths[`/api-gateway/${path.replace(/\/$/, '')}`]) return;
  const validate = documented(path, answer.status);
  expect(validate(answer.body), `${path} ${answer.status}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

/** Checks an answer of `path` against the operation's zod schema (or the error table) and the document. */
export function expectOnContract(path: string, answer: CheckedAnswer): void {
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
