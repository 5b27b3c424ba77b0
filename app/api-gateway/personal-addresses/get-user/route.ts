import { API_OPERATIONS, nextMethodNotAllowed, nextRoute } from '@/lib/api';

export const POST = nextRoute(API_OPERATIONS['personal-addresses/get-user']);
export { nextMethodNotAllowed as GET, nextMethodNotAllowed as PUT, nextMethodNotAllowed as PATCH, nextMethodNotAllowed as DELETE };
