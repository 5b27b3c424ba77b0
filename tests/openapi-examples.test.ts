/**
 * The API reference's answer examples (lib/protocol/examples.ts) checked as the gateway's own
 * answers are (tests/support/contract-check.ts): each operation's success example against its zod
 * response schema and the document's JSON Schema, each error example against the error table and
 * the document's error schema.
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument, OPERATIONS } from '@/lib/protocol';
import { expectOnContract } from './support/contract-check';

const document = openApiDocument();
const paths = Object.entries(document.paths).map(
  ([path, { post }]) => [path.replace('/api-gateway/', ''), post] as const,
);

describe('the API reference examples', () => {
  it('has a success example for every operation, on its contract', () => {
    const operations = paths.filter(([, post]) => post.tags[0] !== 'not supported');
    expect(operations.length).toBeGreaterThanOrEqual(Object.keys(OPERATIONS).length);
    for (const [path, post] of operations) {
      const example = post.responses['200']!.content['application/json'].example;
      expect(example, path).toBeDefined();
      expectOnContract(path, { status: 200, body: example });
    }
  });

  it('has an example for every error answer of every operation, on the error contract', () => {
    let checked = 0;
    for (const [path, post] of paths)
      for (const [status, answer] of Object.entries(post.responses)) {
        if (status === '200') continue;
        const examples = Object.values(answer.content['application/json'].examples ?? {});
        expect(examples.length, `${path} ${status}`).toBeGreaterThan(0);
        for (const { value } of examples) expectOnContract(path, { status: Number(status), body: value });
        checked += examples.length;
      }
    expect(checked).toBeGreaterThan(paths.length);
  });

  it('tells one story: the order example is a Tron USDT order of 125.50 with its link', () => {
    const order = document.paths['/api-gateway/order']!.post.responses['200']!.content['application/json'].example as {
      response: Record<string, unknown>;
    };
    expect(order.response).toMatchObject({ amount: '125.50', currency: 'USDT', network: 'tron', status: 'pending' });
    expect(order.response.transactions).toHaveLength(1);
  });
});
