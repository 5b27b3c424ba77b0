import 'server-only';
import { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { ApiError } from './errors';

/**
 * The request body, for both servers: the node:http front hands its request itself, the Next.js
 * adapter its web body as a Node.js stream (`Readable.fromWeb`). Refused with BODY_TOO_LARGE past
 * `limit` bytes received, without reading the rest.
 */
export function readBody(body: Readable, limit: number): Promise<Buffer> {
  // A client that left before its request's turn came (its 'close' then went unheard) is not
  // waited for: its read would never end, and would count against its address as a slow body.
  if (body.destroyed || (body instanceof IncomingMessage && body.socket.destroyed)) {
    return Promise.reject(new ApiError('INVALID_JSON', 'The client closed the connection before its body was read.'));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (settle: () => void) => {
      body.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done(() => reject(new ApiError('BODY_TOO_LARGE')));
        stopReading(body);
      } else chunks.push(chunk);
    };
    const onEnd = () => done(() => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    // The client went away mid-body: settle, so that the request leaves the in-flight count.
    const onClose = () => done(() => reject(new ApiError('INVALID_JSON', 'The request body ended before its end.')));
    body.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onClose);
  });
}

/**
 * A node:http request is paused, not destroyed: that would close the socket before the 413 is
 * written (the front closes the connection after it instead). A web body is cancelled.
 */
function stopReading(body: Readable): void {
  if (body instanceof IncomingMessage) body.pause();
  else body.destroy();
}
