import { apiRoute } from '@/lib/api/route';
import { emptyRequest } from '@/lib/api/protocol';
import { testSignature } from '@/lib/api/test-signature';

export const POST = apiRoute('test-signature', emptyRequest, (ctx) => testSignature(ctx), { verifySignature: false });
