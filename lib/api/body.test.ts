/**
 * The one body reader, on a web body as the Next.js adapter hands it (`Readable.fromWeb`); the
 * node:http front's requests are covered over real sockets by tests/api-front.pg.test.ts and
 * tests/api-slow-bodies.pg.test.ts.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { describe, expect, it } from 'vitest';
import { readBody } from './body';

/** A web body that sends `chunks`, then ends, fails or stays open; `cancelled` says whether the reader gave up on it. */
function webBody(chunks: string[], then: 'end' | 'fail' | 'open' = 'end') {
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      if (then === 'end') controller.close();
      if (then === 'fail') controller.error(new Error('client went away'));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body: Readable.fromWeb(stream as NodeReadableStream), state };
}

describe('readBody on a web body', () => {
  it('reads every chunk into one Buffer', async () => {
    const body = await readBody(webBody(['{"nonce":', '1', '}']).body, 64);
    expect(Buffer.isBuffer(body)).toBe(true);
    expect(body.toString('utf8')).toBe('{"nonce":1}');
  });

  it('refuses a body past the limit with BODY_TOO_LARGE and cancels the rest', async () => {
    const { body, state } = webBody(['x'.repeat(40), 'x'.repeat(40)], 'open');
    await expect(readBody(body, 64)).rejects.toMatchObject({ errorName: 'BODY_TOO_LARGE' });
    await expect.poll(() => state.cancelled).toBe(true);
  });

  it('settles when the body fails before its end, and refuses one already gone', async () => {
    await expect(readBody(webBody(['{"no'], 'fail').body, 64)).rejects.toMatchObject({
      errorName: 'INVALID_JSON',
      message: 'The request body ended before its end.',
    });
    const gone = webBody(['{}']).body;
    gone.destroy();
    await expect(readBody(gone, 64)).rejects.toMatchObject({
      errorName: 'INVALID_JSON',
      message: 'The client closed the connection before its body was read.',
    });
  });
});
