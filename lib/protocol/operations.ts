/**
 * Every merchant API operation (`POST /api-gateway/<name>`) with the schema of its request body
 * and of its response, and the access a key's scopes must grant to call it (./scopes). The API
 * edge implements exactly these (lib/api/operations.ts is checked against this table, each handler
 * against its response, every call against the access), and the typed client reads them.
 */
import type { z } from 'zod';
import {
  endpointDeletedResponse,
  endpointDeliveriesResponse,
  endpointDeliveryResponse,
  endpointListResponse,
  endpointResponse,
  endpointWithSecretResponse,
} from './endpoints';
import { eventListResponse } from './events';
import { feePayersResponse, fundsCheckResponse, fundsResponse, keptFeePayerSchema } from './funds';
import { anyCollectionPlanSchema } from './evm-plans';
import { planListResponse, planSubmittedResponse } from './plans';
import { anyRefundPlanSchema } from './solana-plans';
import { madeRefundResponse, refundListResponse, refundResponse } from './refunds';
import type { OperationAccess } from './scopes';
import {
  advanceTestClockRequest,
  createSubscriptionPlanRequest,
  createSubscriptionRequest,
  listSubscriptionPlansRequest,
  listSubscriptionsRequest,
  subscriptionRequest,
  updateSubscriptionPlanRequest,
  addressTransactionsRequest,
  createUserRequest,
  getUserAddressesRequest,
  getUserAddressRequest,
  getUserRequest,
  advancedBalanceRequest,
  emptyRequest,
  findAddressByAddressRequest,
  findAddressByIdRequest,
  getWebhookRequest,
  getWebhookVerboseRequest,
  listDepositsRequest,
  operationByTxHashRequest,
  validateAddressRequest,
  findTxRequest,
  getDepositRequest,
  getInvoiceRequest,
  getOrderRequest,
  listInvoicesRequest,
  listOrdersRequest,
  listWebhooksRequest,
  makeInvoiceRequest,
  makeOrderRequest,
  priceRateRequest,
  resendWebhookRequest,
  listEventsRequest,
  createEndpointRequest,
  endpointRequest,
  updateEndpointRequest,
  rollEndpointSecretRequest,
  listEndpointDeliveriesRequest,
  createPaymentLinkRequest,
  getPaymentLinkRequest,
  listPaymentLinksRequest,
  disablePaymentLinkRequest,
  makeRefundRequest,
  getRefundRequest,
  listRefundsRequest,
  completeRefundRequest,
  prepareCollectionRequest,
  listCollectionsRequest,
  getCollectionRequest,
  submitPlanRequest,
  prepareRefundPlanRequest,
  setFeePayerRequest,
  getRefundPlanRequest,
} from './requests';
import {
  subscriptionListResponse,
  subscriptionPlanListResponse,
  subscriptionPlanResponse,
  subscriptionResponse,
  testClockResponse,
  addressResponse,
  personalAddressesResponse,
  personalAddressResponse,
  personalUserResponse,
  addressTransactionsResponse,
  advancedBalanceResponse,
  advancedBalancesResponse,
  depositListResponse,
  validateAddressResponse,
  webhookBodyResponse,
  webhookVerboseResponse,
  availableCurrenciesResponse,
  depositResponse,
  invoiceListResponse,
  invoiceResponse,
  operationsResponse,
  orderDetailsResponse,
  orderListResponse,
  orderResponse,
  priceRateResponse,
  testSignatureResponse,
  webhookEventResponse,
  webhookEventsResponse,
  paymentLinkResponse,
  paymentLinkListResponse,
} from './responses';

export const OPERATIONS = {
  'make-order': { request: makeOrderRequest, response: orderResponse, access: 'orders:write' },
  order: { request: getOrderRequest, response: orderDetailsResponse, access: 'orders:read' },
  orders: { request: listOrdersRequest, response: orderListResponse, access: 'orders:read' },
  'make-invoice': { request: makeInvoiceRequest, response: invoiceResponse, access: 'orders:write' },
  'get-invoice': { request: getInvoiceRequest, response: invoiceResponse, access: 'orders:read' },
  'get-invoices': { request: listInvoicesRequest, response: invoiceListResponse, access: 'orders:read' },
  'price-rate': { request: priceRateRequest, response: priceRateResponse, access: 'base' },
  'orphan-deposits/get-deposit': { request: getDepositRequest, response: depositResponse, access: 'read' },
  'find-tx': { request: findTxRequest, response: operationsResponse, access: 'read' },
  'test-signature': { request: emptyRequest, response: testSignatureResponse, access: 'base' },
  'available-currencies': { request: emptyRequest, response: availableCurrenciesResponse, access: 'base' },
  'advanced-balances': { request: emptyRequest, response: advancedBalancesResponse, access: 'base' },
  'webhooks/list': { request: listWebhooksRequest, response: webhookEventsResponse, access: 'read' },
  'webhooks/resend': { request: resendWebhookRequest, response: webhookEventResponse, access: 'webhooks:write' },
  // The operations of the API we follow that its client libraries call beyond the seed's (issue 20).
  'operation-by-tx-hash': { request: operationByTxHashRequest, response: operationsResponse, access: 'read' },
  'utils/validate-address': { request: validateAddressRequest, response: validateAddressResponse, access: 'base' },
  'advanced-balance': { request: advancedBalanceRequest, response: advancedBalanceResponse, access: 'base' },
  'orphan-deposits/get-deposits': { request: listDepositsRequest, response: depositListResponse, access: 'read' },
  'webhooks/get': { request: getWebhookRequest, response: webhookBodyResponse, access: 'read' },
  'webhooks/get-verbose': { request: getWebhookVerboseRequest, response: webhookVerboseResponse, access: 'read' },
  'addresses/find-by-id': { request: findAddressByIdRequest, response: addressResponse, access: 'read' },
  'addresses/find-by-address': { request: findAddressByAddressRequest, response: addressResponse, access: 'read' },
  'addresses/transactions': {
    request: addressTransactionsRequest,
    response: addressTransactionsResponse,
    access: 'read',
  },
  'personal-addresses/create-user': {
    request: createUserRequest,
    response: personalUserResponse,
    access: 'orders:write',
  },
  'personal-addresses/get-user': { request: getUserRequest, response: personalUserResponse, access: 'read' },
  'personal-addresses/get-user-address': {
    request: getUserAddressRequest,
    response: personalAddressResponse,
    access: 'orders:write',
  },
  'personal-addresses/get-user-addresses': {
    request: getUserAddressesRequest,
    response: personalAddressesResponse,
    access: 'read',
  },
  // This gateway's own operations (docs/api.md, "Operations of this gateway"): names no client library uses.
  'events/list': { request: listEventsRequest, response: eventListResponse, access: 'read' },
  'refunds/make': { request: makeRefundRequest, response: madeRefundResponse, access: 'refunds:create' },
  'refunds/get': { request: getRefundRequest, response: refundResponse, access: 'refunds:read' },
  'refunds/list': { request: listRefundsRequest, response: refundListResponse, access: 'refunds:read' },
  'refunds/complete': { request: completeRefundRequest, response: refundResponse, access: 'refunds:create' },
  // Money out, read only (docs/collections.md): what the deposit addresses hold.
  'funds/list': { request: emptyRequest, response: fundsResponse, access: 'read' },
  'funds/check': { request: emptyRequest, response: fundsCheckResponse, access: 'read' },
  // Money out (docs/collections.md): plans for `npm run signer`; keys with the signing-plans scope only.
  'collections/prepare': {
    request: prepareCollectionRequest,
    response: anyCollectionPlanSchema,
    access: 'plans:prepare',
  },
  'collections/list': { request: listCollectionsRequest, response: planListResponse, access: 'plans:read' },
  'collections/get': { request: getCollectionRequest, response: anyCollectionPlanSchema, access: 'plans:read' },
  'collections/submit': { request: submitPlanRequest, response: planSubmittedResponse, access: 'plans:submit' },
  // The fee payer a prepare uses when it names none: kept by the keys that may name one (docs/decisions/107).
  'fee-payers/set': { request: setFeePayerRequest, response: keptFeePayerSchema, access: 'plans:prepare' },
  'fee-payers/list': { request: emptyRequest, response: feePayersResponse, access: 'plans:read' },
  'refund-plans/prepare': { request: prepareRefundPlanRequest, response: anyRefundPlanSchema, access: 'plans:prepare' },
  'refund-plans/get': { request: getRefundPlanRequest, response: anyRefundPlanSchema, access: 'plans:read' },
  'webhook-endpoints/create': {
    request: createEndpointRequest,
    response: endpointWithSecretResponse,
    access: 'webhooks:write',
  },
  'webhook-endpoints/list': { request: emptyRequest, response: endpointListResponse, access: 'read' },
  'webhook-endpoints/get': { request: endpointRequest, response: endpointResponse, access: 'read' },
  'webhook-endpoints/update': { request: updateEndpointRequest, response: endpointResponse, access: 'webhooks:write' },
  'webhook-endpoints/delete': { request: endpointRequest, response: endpointDeletedResponse, access: 'webhooks:write' },
  'webhook-endpoints/roll-secret': {
    request: rollEndpointSecretRequest,
    response: endpointWithSecretResponse,
    access: 'webhooks:write',
  },
  'webhook-endpoints/send-test': {
    request: endpointRequest,
    response: endpointDeliveryResponse,
    access: 'webhooks:write',
  },
  'webhook-endpoints/deliveries': {
    request: listEndpointDeliveriesRequest,
    response: endpointDeliveriesResponse,
    access: 'read',
  },
  // Payment links (docs/payment-links.md): the account's own objects, not a checkout's.
  'payment-links/create': { request: createPaymentLinkRequest, response: paymentLinkResponse, access: 'links:write' },
  'payment-links/get': { request: getPaymentLinkRequest, response: paymentLinkResponse, access: 'read' },
  'payment-links/list': { request: listPaymentLinksRequest, response: paymentLinkListResponse, access: 'read' },
  'payment-links/disable': {
    request: disablePaymentLinkRequest,
    response: paymentLinkResponse,
    access: 'links:write',
  },
  // Subscriptions (docs/subscriptions.md): plans and subscribers; renewals are the worker's.
  'subscriptions/create-plan': {
    request: createSubscriptionPlanRequest,
    response: subscriptionPlanResponse,
    access: 'subscriptions:write',
  },
  'subscriptions/update-plan': {
    request: updateSubscriptionPlanRequest,
    response: subscriptionPlanResponse,
    access: 'subscriptions:write',
  },
  'subscriptions/list-plans': {
    request: listSubscriptionPlansRequest,
    response: subscriptionPlanListResponse,
    access: 'read',
  },
  'subscriptions/create': {
    request: createSubscriptionRequest,
    response: subscriptionResponse,
    access: 'subscriptions:write',
  },
  'subscriptions/get': { request: subscriptionRequest, response: subscriptionResponse, access: 'read' },
  'subscriptions/list': { request: listSubscriptionsRequest, response: subscriptionListResponse, access: 'read' },
  'subscriptions/cancel': {
    request: subscriptionRequest,
    response: subscriptionResponse,
    access: 'subscriptions:write',
  },
  'subscriptions/advance-test-clock': {
    request: advanceTestClockRequest,
    response: testClockResponse,
    access: 'subscriptions:write',
  },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType; access: OperationAccess }>;

export type OperationName = keyof typeof OPERATIONS;

/**
 * Other paths the public clients call for an operation above: the Go client's spellings
 * (`addresses/address-transactions`, `personal_addresses/...`).
 */
export const OPERATION_ALIASES: Readonly<Record<string, OperationName>> = {
  'addresses/address-transactions': 'addresses/transactions',
  'personal_addresses/create-user': 'personal-addresses/create-user',
  'personal_addresses/get-user': 'personal-addresses/get-user',
  'personal_addresses/get-user-address': 'personal-addresses/get-user-address',
  'personal_addresses/get-user-addresses': 'personal-addresses/get-user-addresses',
};
/** An operation's request body after validation (what its handler receives). */
export type RequestOf<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['request']>;
/** What an operation's handler answers: its response schema's input. */
export type ResponseOf<N extends OperationName> = z.input<(typeof OPERATIONS)[N]['response']>;
