import { apiRoute } from '@/lib/api/route';
import { listOrdersRequest } from '@/lib/api/protocol';
import { listOrders, serializeOrder } from '@/lib/orders';

export const POST = apiRoute('orders', listOrdersRequest, async ({ db, key }, filter) => {
  const { orders, total } = await listOrders(db, key, filter);
  return { orders: orders.map(serializeOrder), total, limit: filter.limit, offset: filter.offset };
});
