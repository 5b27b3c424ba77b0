import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_ERRORS } from './errors';
import { openApiDocument } from './openapi';
import { OPERATION_ALIASES, OPERATIONS } from './operations';
import { UNSUPPORTED_OPERATIONS } from './unsupported';

describe('the OpenAPI document', () => {
  const document = openApiDocument();

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every operation, alias and refused operation, with the signing scheme and every error', () => {
    const paths = Object.keys(document.paths)
      .map((p) => p.replace('/api-gateway/', ''))
      .sort();
    expect(paths).toEqual(
      [...Object.keys(OPERATIONS), ...Object.keys(OPERATION_ALIASES), ...Object.keys(UNSUPPORTED_OPERATIONS)].sort(),
    );
    expect(document.security).toEqual([{ publicKey: [], signature: [] }]);
    expect(document.components.securitySchemes.signature).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-signature',
    });
    const documentedErrors = new Set(
      Object.values(document.paths).flatMap(({ post }) =>
        Object.values(post.responses).flatMap((r) => Object.keys(r.content['application/json'].examples ?? {})),
      ),
    );
    expect([...documentedErrors].sort()).toEqual(Object.keys(API_ERRORS).sort());
  });

  it('has an example request for each operation that its own request schema accepts', () => {
    for (const name of Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[]) {
      const example = document.paths[`/api-gateway/${name}`]!.post.requestBody.content['application/json']
        .example as Record<string, unknown>;
      expect(example.nonce, name).toBeDefined();
      const parsed = OPERATIONS[name].request.safeParse(example);
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });
});
