import { API_OPERATIONS } from '@/lib/api/operations';
import { nextMethodNotAllowed, nextRoute } from '@/lib/api/route';

export const POST = nextRoute(API_OPERATIONS['orphan-deposits/get-deposit']);
export { nextMethodNotAllowed as GET, nextMethodNotAllowed as PUT, nextMethodNotAllowed as PATCH, nextMethodNotAllowed as DELETE };
