/**
 * A typed client for the merchant API, for the merchant's server (it holds the private key, hence
 * `server-only`). It signs exactly as the wire protocol says (HMAC-SHA256 hex of the raw body
 * with the private key, a fresh nonce per request), checks every answer against the wire
 * contract's response schemas (lib/protocol), and throws one of the errors of ./errors. It works
 * against any compatible base URL.
 *
 * Retries: every operation is safe to repeat (the reads, make-order, which is idempotent on
 * `order`: a repeat answers the order the first attempt made, and make-invoice when it carries
 * `externalId` or `order`, its idempotency keys; without them it is sent once). So the client retries what a
 * repeat can cure: no connection, no answer in time, 503 OVERLOADED, 429 RATE_LIMITED (after its
 * retry-after), 502/504 from a proxy, and NONCE_REUSED (a rejected request wrote nothing, and the
 * next attempt has a new nonce). It never retries another error: the answer would be the same.
 */
import 'server-only';
import { createHmac } from 'node:crypto';
import type { z } from 'zod';
import {
  advancedBalancesResponse,
  availableCurrenciesResponse,
  depositResponse,
  errorEnvelope,
  invoiceListResponse,
  invoiceResponse,
  OPERATIONS,
  operationsResponse,
  orderDetailsResponse,
  orderListResponse,
  orderResponse,
  priceRateResponse,
  successEnvelope,
  type ListInvoicesInput,
  type ListOrdersInput,
  type MakeInvoiceInput,
  type MakeOrderInput,
  type OperationName,
} from '../protocol';
import {
  GatewayApiError,
  GatewayProtocolError,
  GatewayTimeoutError,
  GatewayUnreachableError,
  type GatewayError,
} from './errors';

export * from './errors';
// The answers' types, from the wire contract the gateway's own serializers are typed by.
export type {
  AdvancedBalance,
  AvailableCurrency,
  Deposit,
  Invoice,
  InvoiceList,
  InvoiceStatus,
  InvoiceWebhookPayload,
  ListInvoicesInput,
  ListOrdersInput,
  MakeInvoiceInput,
  MakeOrderInput,
  Operation,
  Order,
  OrderDetails,
  OrderList,
  OrderStatus,
  Address,
  AddressTransaction,
  AddressValidation,
  PersonalAddress,
  PersonalUser,
  WebhookVerbose,
} from '../protocol';

/** What a caller sends to operation `N` (before validation, without the nonce). */
export type OperationInput<N extends OperationName> = z.input<(typeof OPERATIONS)[N]['request']>;
/** What operation `N` answers, checked against its response schema. */
export type OperationAnswer<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['response']>;

export interface GatewayClientOptions {
  /** The gateway's origin, e.g. `https://pay.example.com` (the API lives under /api-gateway/). */
  baseUrl: string;
  publicKey: string;
  privateKey: string;
  /** Per attempt. Default 10 s. */
  timeoutMs?: number;
  /** Further attempts after the first, for the failures a repeat can cure. Default 2. */
  retries?: number;
  /** Wait before the first retry, doubled after each (with jitter). Default 250 ms. */
  retryDelayMs?: number;
  /** Longest wait honoured from a retry-after header. Default 5 s. */
  maxRetryDelayMs?: number;
}

const RETRIED_ERRORS = new Set(['OVERLOADED', 'RATE_LIMITED', 'NONCE_REUSED', 'RATE_UNAVAILABLE']);
const RETRIED_STATUSES = new Set([502, 503, 504]);

type Outcome<T> = { done: true; value: T } | { done: false; error: GatewayError; retry: boolean; waitMs?: number };

export class GatewayClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private lastNonce = 0;

  constructor(private readonly options: GatewayClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 250;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 5_000;
  }

  /** Creates an order, or answers the existing one with the same `order` (seed 2.1 / 2.2). */
  makeOrder(input: MakeOrderInput) {
    return this.call('make-order', input, orderResponse);
  }

  /** The order with what it received and its transactions. */
  getOrder(orderId: string) {
    return this.call('order', { orderId }, orderDetailsResponse);
  }

  listOrders(query: ListOrdersInput = {}) {
    return this.call('orders', query, orderListResponse);
  }

  /** An orphan deposit (seed 2.3). */
  getDeposit(id: string) {
    return this.call('orphan-deposits/get-deposit', { id }, depositResponse);
  }

  /** Operations with this transaction hash (seed 2.4); `[]` when none. */
  findTx(tx: string) {
    return this.call('find-tx', { tx }, operationsResponse);
  }

  /**
   * Creates an invoice priced in `currency` (USD, EUR, GBP or a coin) that the payer pays in a coin
   * of their choice on its `invoiceLink`; with the same `externalId` (else `order`), answers the
   * existing one. `lifetime` is in minutes.
   */
  makeInvoice(input: MakeInvoiceInput) {
    const idempotent = input.externalId != null || input.order != null;
    return this.call('make-invoice', input, invoiceResponse, { retry: idempotent });
  }

  getInvoice(invoiceId: string) {
    return this.call('get-invoice', { invoiceId }, invoiceResponse);
  }

  listInvoices(query: ListInvoicesInput = {}) {
    return this.call('get-invoices', query, invoiceListResponse);
  }

  /** The price of one `from` in `to` (tickers or fiat codes), a decimal string. */
  priceRate(from: string, to: string) {
    return this.call('price-rate', { from, to }, priceRateResponse);
  }

  availableCurrencies() {
    return this.call('available-currencies', {}, availableCurrenciesResponse);
  }

  advancedBalances() {
    return this.call('advanced-balances', {}, advancedBalancesResponse);
  }

  /**
   * Any operation of the wire contract, its body and answer typed by the same schemas the gateway
   * validates with (lib/protocol's OPERATIONS). The named methods below are this with their names.
   */
  operation<N extends OperationName>(
    name: N,
    input: OperationInput<N>,
    options: { retry?: boolean } = {},
  ): Promise<OperationAnswer<N>> {
    // The schema is picked by a type parameter, which TypeScript cannot follow into call()'s inference.
    return this.call(name, input as object, OPERATIONS[name].response as z.ZodType, options) as Promise<
      OperationAnswer<N>
    >;
  }

  /** The same search as findTx, under the name the Python client uses. */
  operationByTxHash(tx: string) {
    return this.operation('operation-by-tx-hash', { tx });
  }

  /** Whether `address` is one of `network`'s (pattern and checksum), and the pattern. */
  validateAddress(address: string, network: string) {
    return this.operation('utils/validate-address', { address, network });
  }

  /** One fee account; without an id, the key's own. */
  advancedBalance(advancedBalanceId?: string) {
    return this.operation('advanced-balance', { advancedBalanceId });
  }

  listDeposits(query: OperationInput<'orphan-deposits/get-deposits'> = {}) {
    return this.operation('orphan-deposits/get-deposits', query);
  }

  /** The body a webhook event sent. */
  getWebhook(webhookId: string) {
    return this.operation('webhooks/get', { webhookId });
  }

  /** A webhook event with its request, last answer and delivery log; `fields` keeps the fields named. */
  getWebhookVerbose(webhookId: string, fields?: string[]) {
    return this.operation('webhooks/get-verbose', { webhookId, fields });
  }

  findAddressById(id: string) {
    return this.operation('addresses/find-by-id', { id });
  }

  findAddressByAddress(address: string, tag?: string) {
    return this.operation('addresses/find-by-address', { address, tag });
  }

  addressTransactions(query: OperationInput<'addresses/transactions'>) {
    return this.operation('addresses/transactions', query);
  }

  /** Creates the user `clientId` (make-order's externalUserId) or updates the fields given; safe to repeat. */
  createUser(input: OperationInput<'personal-addresses/create-user'>) {
    return this.operation('personal-addresses/create-user', input);
  }

  getUser(by: OperationInput<'personal-addresses/get-user'>) {
    return this.operation('personal-addresses/get-user', by);
  }

  /** The user's address for a coin, taken on first use (the same one every time). */
  getUserAddress(input: OperationInput<'personal-addresses/get-user-address'>) {
    return this.operation('personal-addresses/get-user-address', input);
  }

  getUserAddresses(query: OperationInput<'personal-addresses/get-user-addresses'>) {
    return this.operation('personal-addresses/get-user-addresses', query);
  }

  /**
   * Signs and sends one operation, retrying what a repeat can cure; answers the checked response.
   * `retry: false` (a request that is not idempotent): only refusals are retried, which wrote
   * nothing; never a request whose answer was lost, which may have been carried out.
   */
  async call<S extends z.ZodType>(
    operation: string,
    fields: object,
    answer: S,
    options: { retry?: boolean } = {},
  ): Promise<z.output<S>> {
    let delay = this.retryDelayMs;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(operation, fields, answer, attempt);
      if (outcome.done) return outcome.value;
      const unsafe = options.retry === false && !(outcome.error instanceof GatewayApiError);
      if (!outcome.retry || unsafe || attempt > this.retries) throw outcome.error;
      const jittered = delay * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, Math.min(outcome.waitMs ?? jittered, this.maxRetryDelayMs)));
      delay *= 2;
    }
  }

  private async attempt<S extends z.ZodType>(
    operation: string,
    fields: object,
    answer: S,
    attempt: number,
  ): Promise<Outcome<z.output<S>>> {
    const body = JSON.stringify({ ...fields, nonce: this.nextNonce() });
    const signature = createHmac('sha256', this.options.privateKey).update(body, 'utf8').digest('hex');
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.baseUrl}/api-gateway/${operation}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-public-key': this.options.publicKey,
          'x-api-signature': signature,
        },
        body,
        // A signed request is never re-sent to wherever a redirect points.
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const failure = timedOut
        ? new GatewayTimeoutError(operation, attempt, this.timeoutMs)
        : new GatewayUnreachableError(operation, attempt, error);
      return { done: false, error: failure, retry: true };
    }
    return this.read(operation, attempt, response, text, answer);
  }

  private read<S extends z.ZodType>(
    operation: string,
    attempt: number,
    response: Response,
    text: string,
    answer: S,
  ): Outcome<z.output<S>> {
    const protocolError = (message: string): Outcome<never> => ({
      done: false,
      error: new GatewayProtocolError(operation, attempt, response.status, message),
      // A proxy in front of the gateway answers 502/504 in its own words: worth another try.
      retry: RETRIED_STATUSES.has(response.status),
    });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return protocolError(`the body is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
    }
    const failure = errorEnvelope.safeParse(json);
    if (failure.success) {
      const { name, code, message, details } = failure.data.error;
      const error = new GatewayApiError(
        operation,
        attempt,
        response.status,
        name,
        code,
        message,
        details,
        failure.data.requestId,
      );
      const retryAfter = Number(response.headers.get('retry-after'));
      return {
        done: false,
        error,
        retry: RETRIED_ERRORS.has(name) || RETRIED_STATUSES.has(response.status),
        waitMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
      };
    }
    const success = successEnvelope.safeParse(json);
    if (!response.ok || !success.success) return protocolError('the body is neither a success nor an error envelope');
    const checked = answer.safeParse(success.data.response);
    if (!checked.success) {
      const first = checked.error.issues[0];
      return protocolError(
        `the response does not match ${operation}'s answer: ${first ? `${first.path.join('.') || '(root)'} ${first.message}` : 'invalid'}`,
      );
    }
    return { done: true, value: checked.data };
  }

  /** Distinct per request and below 2^53: microseconds since the epoch, strictly increasing. */
  private nextNonce(): number {
    this.lastNonce = Math.max(this.lastNonce + 1, Date.now() * 1000);
    return this.lastNonce;
  }
}
