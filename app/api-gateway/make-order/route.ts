import { apiRoute } from '@/lib/api/route';
import { makeOrderRequest } from '@/lib/api/protocol';
import { makeOrder, serializeOrder } from '@/lib/orders';

export const POST = apiRoute('make-order', makeOrderRequest, async (ctx, input) => serializeOrder(await makeOrder(ctx, input)), {
  nonce: 'handler',
});
