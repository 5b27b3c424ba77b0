import { ApiError } from '@/lib/api/errors';
import { apiRoute } from '@/lib/api/route';
import { resendWebhookRequest } from '@/lib/api/protocol';
import { isUuid } from '@/lib/orders';
import { resendWebhook } from '@/lib/webhooks';

export const POST = apiRoute('webhooks/resend', resendWebhookRequest, async ({ db, key }, { id }) => {
  const event = isUuid(id) ? await resendWebhook(db, id, { merchantId: key.merchantId, mode: key.mode }) : undefined;
  if (!event) throw new ApiError('NOT_FOUND', `Webhook event ${id} was not found.`);
  return event;
});
