/**
 * Webhook endpoints as the merchant API answers them (`webhook-endpoints/*`, docs/webhooks.md,
 * "Webhook endpoints"): URLs a merchant configures that receive the events of the types they
 * name, each signed with a secret of its own. The secret is in an answer only when it is made
 * (create, roll-secret): it is stored encrypted and never shown again.
 */
import { z } from 'zod';
import { EVENT_SUBSCRIPTION_VALUES } from './events';
import { webhookAttempt } from './responses';
import { ENDPOINT_STATUS_VALUES, WEBHOOK_STATE_VALUES } from './status';

const timestamp = z.iso.datetime({ offset: true });

export const endpointResponse = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(z.enum(EVENT_SUBSCRIPTION_VALUES)),
  status: z.enum(ENDPOINT_STATUS_VALUES),
  /** Why the gateway disabled it (null unless `disabled`). */
  disabledReason: z.string().nullable(),
  /** The first failed delivery since its last success; null while it succeeds. */
  failingSince: timestamp.nullable(),
  /** While a rolled secret's overlap lasts, deliveries are signed with both; null when there is no old secret. */
  previousSecretExpiresAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Endpoint = z.infer<typeof endpointResponse>;

export const endpointListResponse = z.array(endpointResponse);

/** create and roll-secret: the endpoint with its (new) signing secret, shown this once. */
export const endpointWithSecretResponse = z.object({ endpoint: endpointResponse, secret: z.string() });

export const endpointDeletedResponse = z.object({ id: z.string(), deleted: z.literal(true) });

/** One delivery of an event (or of a test event) to an endpoint, with every attempt. */
export const endpointDeliveryResponse = z.object({
  id: z.string(),
  endpointId: z.string(),
  /** The event delivered; null for a test event (which is not in the feed). */
  eventId: z.string().nullable(),
  eventType: z.string(),
  url: z.string(),
  state: z.enum(WEBHOOK_STATE_VALUES),
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: timestamp.nullable(),
  deliveredAt: timestamp.nullable(),
  createdAt: timestamp,
  log: z.array(webhookAttempt),
});
export type EndpointDelivery = z.infer<typeof endpointDeliveryResponse>;

/** webhook-endpoints/deliveries: newest first; `hasMore` when an older page follows (pass the last id as `before`). */
export const endpointDeliveriesResponse = z.object({
  deliveries: z.array(endpointDeliveryResponse),
  hasMore: z.boolean(),
});
