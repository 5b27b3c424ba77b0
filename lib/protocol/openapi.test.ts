import { execFileSync } from 'node:child_process';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_ERRORS } from './errors';
import { codeSamples, openApiDocument } from './openapi';
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

  it("has a signed curl and Node call per operation whose body, as the shell reads it, is the operation's example", () => {
    const operations = Object.entries(document.paths).filter(([, { post }]) => post.tags[0] !== 'not supported');
    // Each sample's BODY line run by bash, with `node -p 'Date.now()'` answering a fixed nonce.
    const script = [
      `node() { printf 1732480000000; }`,
      ...operations.map(
        ([, { post }]) => `${post['x-codeSamples']![0]!.source.split('\n')[0]}; printf '%s\\n' "$BODY"`,
      ),
    ].join('\n');
    const bodies = execFileSync('bash', ['-c', script], { encoding: 'utf8' }).trimEnd().split('\n');
    expect(bodies).toHaveLength(operations.length);
    operations.forEach(([path, { post }], i) => {
      const [curl, node] = post['x-codeSamples']!;
      expect(JSON.parse(bodies[i]!), path).toEqual(post.requestBody.content['application/json'].example);
      expect(curl!.source, path).toContain(`"$GATEWAY_URL${path}"`);
      expect(curl!.source, path).toContain('openssl dgst -sha256 -hmac "$PRIVATE_KEY"');
      expect(node!.source, path).toContain(`\${process.env.GATEWAY_URL}${path}`);
    });
  });

  it('titles operations in plain text: no Markdown backticks in a summary', () => {
    const make = document.paths['/api-gateway/make-order']!.post;
    expect(make.summary).toBe('Create a payment order, or answer the existing one with the same order.');
    for (const [path, { post }] of Object.entries(document.paths)) expect(post.summary, path).not.toContain('`');
  });

  it("quotes a body's single quotes for the shell", () => {
    const [curl] = codeSamples('/api-gateway/make-order', { description: "Ana's order" });
    const body = execFileSync(
      'bash',
      ['-c', `node() { printf 1; }; ${curl!.source.split('\n')[0]}; printf %s "$BODY"`],
      {
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(body)).toEqual({ description: "Ana's order", nonce: 1 });
  });
});
