import { randomUUID } from 'node:crypto';
import { errorReply, webResponse } from '@/lib/api';

/** Unknown operations answer the JSON error envelope rather than an HTML page. */
function notFound(request: Request): Response {
  return webResponse(errorReply('NOT_FOUND', randomUUID(), `No operation at ${new URL(request.url).pathname}.`));
}

export const POST = notFound;
export const GET = notFound;
