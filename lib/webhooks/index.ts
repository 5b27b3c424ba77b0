import 'server-only';
/**
 * Signed webhooks, delivered at least once (SPEC "Webhooks", docs/decisions/009-webhooks.md):
 * the outbox written in the status change's transaction with its events (lib/events), the
 * dispatcher, the SSRF guard, the delivery log and re-sending, and the webhook endpoints a merchant
 * configures with secrets of their own (docs/decisions/050).
 */
export {
  publishDepositEvents,
  publishEvents,
  publishInvoiceEvent,
  publishOrderEvents,
  publishResolutionEvent,
  WEBHOOK_CHANNEL,
  type EnqueuedWebhook,
  type FinalInvoice,
  type TransferKey,
} from './outbox';
export { webhookBody, webhookKindOf } from './payload';
export { signAttempt } from './sender';
export { checkTarget, forbiddenRange, systemResolver, type Resolver, type TargetPolicy } from './ssrf';
export { claimDue } from './claims';
export { startDispatcher, type Dispatcher } from './dispatcher';
export { dispatcherOptions, targetPolicy, type DispatcherOptions } from './options';
export { nextState, RETRY_DELAYS_MS, RETRY_JITTER } from './schedule';
export {
  getDelivery,
  getWebhookBody,
  getWebhookVerbose,
  listOrderDeliveries,
  resendWebhook,
  webhookEventOwner,
} from './deliveries';
export {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpointDeliveries,
  listEndpoints,
  MAX_ENDPOINTS,
  rollEndpointSecret,
  sendTestEvent,
  serializeEndpoint,
  TooManyEndpoints,
  updateEndpoint,
} from './endpoints';
export { endpointHeaders, hmacHex, webhookHeaders } from './signing';
