import { apiRoute } from '@/lib/api/route';
import { listWebhooksRequest } from '@/lib/api/protocol';
import { getOrder } from '@/lib/orders';
import { listDeliveries } from '@/lib/webhooks';

export const POST = apiRoute('webhooks/list', listWebhooksRequest, async ({ db, key }, { orderId }) => {
  const { order } = await getOrder(db, key, orderId); // another merchant's or mode's order: 404
  return listDeliveries(db, order.id, { merchantId: key.merchantId, mode: key.mode });
});
