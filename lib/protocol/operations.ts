/**
 * Every merchant API operation (`POST /api-gateway/<name>`) with the schema of its request body
 * and of its response. The API edge implements exactly these (lib/api/operations.ts is checked
 * against this table, each handler against its response), and the typed client reads them.
 */
import type { z } from 'zod';
import {
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
  createPaymentLinkRequest,
  getPaymentLinkRequest,
  listPaymentLinksRequest,
  disablePaymentLinkRequest,
} from './requests';
import {
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
  'make-order': { request: makeOrderRequest, response: orderResponse },
  order: { request: getOrderRequest, response: orderDetailsResponse },
  orders: { request: listOrdersRequest, response: orderListResponse },
  'make-invoice': { request: makeInvoiceRequest, response: invoiceResponse },
  'get-invoice': { request: getInvoiceRequest, response: invoiceResponse },
  'get-invoices': { request: listInvoicesRequest, response: invoiceListResponse },
  'price-rate': { request: priceRateRequest, response: priceRateResponse },
  'orphan-deposits/get-deposit': { request: getDepositRequest, response: depositResponse },
  'find-tx': { request: findTxRequest, response: operationsResponse },
  'test-signature': { request: emptyRequest, response: testSignatureResponse },
  'available-currencies': { request: emptyRequest, response: availableCurrenciesResponse },
  'advanced-balances': { request: emptyRequest, response: advancedBalancesResponse },
  'webhooks/list': { request: listWebhooksRequest, response: webhookEventsResponse },
  'webhooks/resend': { request: resendWebhookRequest, response: webhookEventResponse },
  // The operations of the API we follow that its client libraries call beyond the seed's (issue 20).
  'operation-by-tx-hash': { request: operationByTxHashRequest, response: operationsResponse },
  'utils/validate-address': { request: validateAddressRequest, response: validateAddressResponse },
  'advanced-balance': { request: advancedBalanceRequest, response: advancedBalanceResponse },
  'orphan-deposits/get-deposits': { request: listDepositsRequest, response: depositListResponse },
  'webhooks/get': { request: getWebhookRequest, response: webhookBodyResponse },
  'webhooks/get-verbose': { request: getWebhookVerboseRequest, response: webhookVerboseResponse },
  'addresses/find-by-id': { request: findAddressByIdRequest, response: addressResponse },
  'addresses/find-by-address': { request: findAddressByAddressRequest, response: addressResponse },
  'addresses/transactions': { request: addressTransactionsRequest, response: addressTransactionsResponse },
  'personal-addresses/create-user': { request: createUserRequest, response: personalUserResponse },
  'personal-addresses/get-user': { request: getUserRequest, response: personalUserResponse },
  'personal-addresses/get-user-address': { request: getUserAddressRequest, response: personalAddressResponse },
  'personal-addresses/get-user-addresses': { request: getUserAddressesRequest, response: personalAddressesResponse },
  // Operations of our own (no client library of the API we follow uses these names): docs/payment-links.md.
  'payment-links/create': { request: createPaymentLinkRequest, response: paymentLinkResponse },
  'payment-links/get': { request: getPaymentLinkRequest, response: paymentLinkResponse },
  'payment-links/list': { request: listPaymentLinksRequest, response: paymentLinkListResponse },
  'payment-links/disable': { request: disablePaymentLinkRequest, response: paymentLinkResponse },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;

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
