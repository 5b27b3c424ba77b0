import { randomUUID } from 'node:crypto';
import { API_ERRORS } from '@/lib/api/errors';

/** Unknown operations answer the JSON error envelope rather than an HTML page. */
function notFound(request: Request): Response {
  const requestId = randomUUID();
  const operation = new URL(request.url).pathname;
  const { code } = API_ERRORS.NOT_FOUND;
  return Response.json(
    { success: false, error: { code, name: 'NOT_FOUND', message: `No operation at ${operation}.`, details: [] }, requestId },
    { status: 404, headers: { 'x-request-id': requestId } },
  );
}

export const POST = notFound;
export const GET = notFound;
