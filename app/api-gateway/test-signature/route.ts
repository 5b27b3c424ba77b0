import { API_OPERATIONS } from '@/lib/api/operations';
import { nextRoute } from '@/lib/api/route';

export const POST = nextRoute(API_OPERATIONS['test-signature']);
