import { apiRoute } from '@/lib/api/route';
import { getOrderRequest } from '@/lib/api/protocol';
import { getOrder, serializeOrderDetails } from '@/lib/orders';

export const POST = apiRoute('order', getOrderRequest, async ({ db, key }, { orderId }) => {
  const { order, payments } = await getOrder(db, key, orderId);
  return serializeOrderDetails(order, payments);
});
