/**
 * The merchant API as an OpenAPI 3.1 document, generated from the schemas the server validates
 * requests with and types its answers by (./operations), never written by hand: a field added to a
 * schema appears here. Served at /api-gateway/openapi.json and rendered by /docs/api.
 *
 * Request bodies are described as callers send them (zod's input side: null allowed for optional
 * fields, aliases, defaults absent), answers as the gateway writes them (the output side).
 * Refinements that JSON Schema cannot say (a checksum, "id or clientId") are in the descriptions
 * and in the error answers.
 */
import { z } from 'zod';
import { API_ERRORS, describeProblems, errorEnvelope, fieldProblems, type ApiErrorName } from './errors';
import { EXAMPLE_ID, exampleOf } from './examples';
import { OPERATION_ALIASES, OPERATIONS, type OperationName } from './operations';
import { nonceField } from './requests';
import { KEY_SCOPE_VALUES, KEY_SCOPES, scopeRefusal, scopesGranting } from './scopes';
import { UNSUPPORTED_OPERATIONS } from './unsupported';

type JsonSchema = Record<string, unknown>;

interface MediaType {
  schema: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

/** A ready-to-run call, as OpenAPI renderers read it (`x-codeSamples`). */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** One operation of the document (what the API reference page reads). */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  /** The key scopes that may call it (docs/api.md, "Key scopes"). */
  description?: string;
  tags: string[];
  /** Signed calls in curl and Node, with the example body (rendered by /docs/api, Scalar and Redoc read it). */
  'x-codeSamples'?: CodeSample[];
  requestBody: { required: boolean; content: { 'application/json': MediaType } };
  responses: Record<string, { description: string; content: { 'application/json': MediaType } }>;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** What each operation does, one line each (docs/api.md, the API reference, says more). */
const SUMMARIES: Record<OperationName, string> = {
  'make-order': 'Create a payment order, or answer the existing one with the same `order`.',
  order: 'One order with what it received and its transactions.',
  orders: "The orders of the key's merchant and mode, newest first.",
  'make-invoice': 'Create an invoice priced in a fiat currency or a coin.',
  'get-invoice': 'One invoice.',
  'get-invoices': 'The invoices, newest first.',
  'price-rate': 'The price of one `from` in `to`.',
  'orphan-deposits/get-deposit': 'One orphan deposit.',
  'find-tx': 'Every operation with this transaction hash.',
  'test-signature': 'Check how a request was signed (answers unsigned requests too).',
  'available-currencies': 'The coins and networks orders can be made in, with their address patterns.',
  'advanced-balances': "The merchant's fee account (always one).",
  'webhooks/list': 'The webhook events of an order with their delivery log.',
  'webhooks/resend': 'Send a webhook event again, now.',
  'operation-by-tx-hash': "The same search as find-tx, under the Python client's name.",
  'utils/validate-address': "Whether an address is one of the network's (pattern and checksum).",
  'advanced-balance': "One fee account by id (absent: the key's own).",
  'orphan-deposits/get-deposits': 'The orphan deposits, newest first, filtered and paged.',
  'webhooks/get': 'The body a webhook event sent.',
  'webhooks/get-verbose':
    'A webhook event with its request, last answer and delivery log; `fields` keeps the fields named.',
  'addresses/find-by-id': "One of the merchant's addresses by id.",
  'addresses/find-by-address': "One of the merchant's addresses by address (and tag).",
  'addresses/transactions': 'What went in and out of an address, newest first.',
  'personal-addresses/create-user':
    "Create a personal-address user (make-order's externalUserId), or update the fields given.",
  'personal-addresses/get-user': 'A personal-address user by id or clientId.',
  'personal-addresses/get-user-address': "The user's address for a coin, taken on first use.",
  'personal-addresses/get-user-addresses': "The user's addresses, one per coin of each network.",
  'events/list':
    'Events after a cursor (the id of the last event seen), oldest first, by type: the feed to catch up from.',
  'webhook-endpoints/create': 'Configure a webhook endpoint; answers its signing secret, shown this once.',
  'webhook-endpoints/list': 'The webhook endpoints, oldest first (without secrets).',
  'webhook-endpoints/get': 'One webhook endpoint.',
  'webhook-endpoints/update': 'Change its URL, event types, description, or pause or enable it.',
  'webhook-endpoints/delete': 'Delete a webhook endpoint: it receives nothing more.',
  'webhook-endpoints/roll-secret':
    'A new signing secret, shown once; the old one signs beside it for `overlapHours` (0-168, default 24).',
  'webhook-endpoints/send-test': 'Deliver a test event (`webhook_endpoint.test`) to the endpoint now.',
  'webhook-endpoints/deliveries': "The endpoint's delivery log, newest first, by event type and state.",
  'payment-links/create': 'Create a payment link: a public page that makes an invoice when a payer goes on.',
  'payment-links/get': 'One payment link with its views, invoices, paid count and total.',
  'payment-links/list': 'The payment links, newest first.',
  'payment-links/disable': 'Stop a payment link making invoices (those it made run on).',
  'refunds/make':
    'Refund an order, an invoice or an orphan deposit, in full or in part, in the coin or priced in fiat; answers the claim link the payer gives their address through.',
  'refunds/get': 'One refund.',
  'refunds/list': 'The refunds, newest first (of one order with `orderId`).',
  'refunds/complete':
    "Completes a refund sent by hand from any wallet by the transaction that paid it, verified on its network: it must pay the confirmed address (and tag) at least what the refund owes, and complete no other refund. Sent, or confirmed with the network's confirmations. A refund an open plan pays is that plan's to pay: refused.",
  'funds/list':
    "What the deposit addresses hold, per network and currency, with the estimated fee to collect it (on EVM, per address) and the treasury it goes to; and per EVM network the gas fund-then-transfer collections left (`gasLeft`): what the node says is left, what sending one address's back costs and how many are worth it (`read: false` when the node gave no answer).",
  'funds/check':
    "Every deposit output the watcher recorded as held, asked of the network's node (`gettxout`): the outputs it says are spent, unknown or of another amount. On EVM and Tron, each deposit address's balance of each currency against the deposits recorded and not collected: the addresses that hold another (`txid` and `vout` null); `checked: false` when the node gave no answer.",
  'collections/prepare':
    "Prepare a plan that moves the network's confirmed deposits (above `minimum`) to the treasury, for `npm run signer`: a PSBT (Bitcoin family), or on EVM and Tron the unsigned transactions of one `currency`, their fees paid by `feePayer`.",
  'collections/list': 'The collection plans, newest first, with their status (without their PSBTs).',
  'collections/get':
    'One collection plan as the signer reads it (a PSBT, or EVM or Tron transactions), with its status.',
  'collections/submit':
    "Hand a plan's signed transaction (the signed PSBT or the raw transaction) to the gateway's node: taken only when it spends exactly the plan's inputs and pays exactly its outputs.",
  'fee-payers/set':
    "Keep the account of your seed (its address and path, never a key) that pays a network's collection fees: the EVM gas payer or Tron's resource account. A prepare without `feePayer` uses it.",
  'fee-payers/list': 'The fee payer kept for each network, in the key’s mode.',
  'refund-plans/prepare':
    "Prepare the plan that sends a ready refund to the payer's confirmed address: a PSBT (a raw transaction on dogecoin and bitcoincash), the change to the treasury; on EVM and Tron, one transaction from the treasury; on Solana, one transfer from the order's wallet that the signer builds and sends. One open plan pays a refund: a refund it pays is refused.",
  'refund-plans/get': "A refund plan by id, or a refund's newest plan by `refundId`.",
  'subscriptions/create-plan':
    'Create a subscription plan: a price per period, an optional trial, reminders and grace.',
  'subscriptions/update-plan':
    "Rename a plan, retire it (`active: false`: no new subscribers; its subscribers keep their terms and renewals) or open it again. A plan's terms never change.",
  'subscriptions/list-plans': 'The subscription plans, newest first.',
  'subscriptions/create':
    'Subscribe an e-mail address to a plan: a fresh invoice each period, mailed with reminders (docs/subscriptions.md).',
  'subscriptions/get': 'One subscription: its status, current period, paid periods, credit and open invoice.',
  'subscriptions/list': 'The subscriptions, of one plan or all, newest first.',
  'subscriptions/cancel': 'Cancel a subscription: no more invoices (idempotent).',
  'subscriptions/advance-test-clock':
    "Move the test mode's subscription clock forward and run the renewals it makes due (test keys only).",
};

/** The document's introduction (Markdown): the conventions and the signing, as docs/api.md says them. */
const INTRODUCTION = `Every operation is a \`POST\` of a JSON object to \`/api-gateway/<operation>\` (at most 64 KiB; a trailing slash is accepted), signed with an API key. Answers are \`{"success": true, "response": ...}\` or \`{"success": false, "error": {"code", "name", "message", "details"}, "requestId"}\` with the HTTP status of the error table; a refused request changes nothing.

## Signing a request

1. Put a \`nonce\` in the body: a JSON integer up to 2^53 − 1 or a string of at most 30 digits, accepted once per key, in any order (a millisecond timestamp will do).
2. Serialize the body once, to the exact bytes you will send.
3. Sign those bytes: the lower-case hex **HMAC-SHA256** of the raw body, keyed with the private key's UTF-8 bytes.
4. Send the bytes unchanged with two headers: \`x-api-public-key\` (the key's public key) and \`x-api-signature\` (the signature).

The gateway checks the bytes it received, so any JSON formatting is fine as long as it is the string that was signed. Each operation below has a signed call in curl (the signature by \`openssl\`) and in Node, reading \`GATEWAY_URL\`, \`PUBLIC_KEY\` and \`PRIVATE_KEY\` from the environment. \`test-signature\` says how a request was signed, and answers unsigned requests too.

\`\`\`js
import { createHmac } from 'node:crypto';

const body = JSON.stringify({ orderId: '6f1c1b1e-8f7a-4c4b-9a55-2d0f5f0b8e21', nonce: Date.now() });
const signature = createHmac('sha256', process.env.PRIVATE_KEY).update(body, 'utf8').digest('hex');
\`\`\`

## Conventions

- Unknown fields are ignored; \`null\` for an optional field means absent.
- Amounts are decimal strings (\`"25.5"\`), never numbers; timestamps are ISO 8601 UTC with milliseconds.
- A key's scope decides which operations it may call; another key is answered 403 \`INSUFFICIENT_SCOPE\`.
- Every answer carries an \`x-request-id\` header, also in the gateway's log line for the request.`;

const ID = EXAMPLE_ID;

/** An example request body per operation (the nonce added to each). */
const EXAMPLES: Record<OperationName, Record<string, unknown>> = {
  'make-order': {
    currency: 'USDT',
    network: 'tron',
    amount: '125.50',
    order: 'shop-1001',
    successWebhook: 'https://shop.example/hooks/ok',
    lifetime: 3600,
  },
  order: { orderId: ID },
  orders: { status: ['pending'], limit: 20, offset: 0 },
  'make-invoice': { currency: 'USD', amount: '49.90', externalId: 'inv-1001', lifetime: 60 },
  'get-invoice': { invoiceId: ID },
  'get-invoices': { limit: 20, offset: 0 },
  'price-rate': { from: 'BTC', to: 'USD' },
  'orphan-deposits/get-deposit': { id: ID },
  'find-tx': { tx: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060' },
  'test-signature': {},
  'available-currencies': {},
  'advanced-balances': {},
  'webhooks/list': { orderId: ID },
  'webhooks/resend': { id: ID },
  'operation-by-tx-hash': { tx: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060' },
  'utils/validate-address': { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', network: 'tron' },
  'advanced-balance': { advancedBalanceId: ID },
  'orphan-deposits/get-deposits': { stage: 'DEPOSIT', status: 'PROCESSED', limit: 20, offset: 0 },
  'webhooks/get': { webhookId: ID },
  'webhooks/get-verbose': { webhookId: ID, fields: ['id', 'event', 'responseStatus'] },
  'addresses/find-by-id': { id: ID },
  'addresses/find-by-address': { address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', tag: '1234567' },
  'addresses/transactions': { id: ID, type: 'deposit', limit: 20, offset: 0 },
  'personal-addresses/create-user': { clientId: 'user-42', clientEmail: 'user42@example.com', createAddresses: false },
  'personal-addresses/get-user': { clientId: 'user-42' },
  'personal-addresses/get-user-address': { id: ID, currency: 'USDT', network: 'tron' },
  'personal-addresses/get-user-addresses': { id: ID, network: ['tron'], limit: 20, offset: 0 },
  'events/list': { types: ['order.processed', 'order.expired'], after: ID, limit: 100 },
  'webhook-endpoints/create': {
    url: 'https://shop.example/hooks/gateway',
    eventTypes: ['order.processed', 'invoice.paid'],
    description: 'Fulfilment',
  },
  'webhook-endpoints/list': {},
  'webhook-endpoints/get': { id: ID },
  'webhook-endpoints/update': { id: ID, status: 'paused' },
  'webhook-endpoints/delete': { id: ID },
  'webhook-endpoints/roll-secret': { id: ID, overlapHours: 1 },
  'webhook-endpoints/send-test': { id: ID },
  'webhook-endpoints/deliveries': { id: ID, eventType: 'order.processed', state: 'failed', limit: 20 },
  'payment-links/create': {
    title: 'Workshop ticket',
    currency: 'EUR',
    amount: '25.00',
    maxQuantity: 4,
    currencies: [{ currency: 'USDT', networks: ['tron'] }, { currency: 'BTC' }],
    maxUses: 40,
  },
  'payment-links/get': { id: ID },
  'payment-links/list': { limit: 20, offset: 0 },
  'payment-links/disable': { id: ID },
  'refunds/make': { invoiceId: ID, amount: '25.00', currency: 'USD', rate: 'invoice' },
  'refunds/get': { id: ID },
  'refunds/list': { orderId: ID, limit: 20 },
  'refunds/complete': { id: ID, txId: 'a3f1c4e2b8d7960512ce4b7a9d0e3f6a2b1c8d7e6f5a4b3c2d1e0f9a8b7c6d5e' },
  'funds/list': {},
  'funds/check': {},
  'collections/prepare': { network: 'litecoin', minimum: '0.001', feeRate: '2' },
  'collections/list': { status: 'prepared', limit: 20 },
  'collections/get': { id: ID },
  'collections/submit': { id: ID, transaction: '020000000001016b' },
  'fee-payers/set': { network: 'tron', address: 'TLrpNTBuCpGMrB9TyVwgEhNVRhtWEQPHh4', path: "m/44'/195'/1'/0/0" },
  'fee-payers/list': {},
  'refund-plans/prepare': { refundId: ID, feeFromRefund: false },
  'refund-plans/get': { refundId: ID },
  'subscriptions/create-plan': {
    name: 'Pro plan',
    currency: 'EUR',
    amount: '9.90',
    interval: 'month',
    intervalCount: 1,
    trialDays: 14,
    reminderDays: 3,
    graceDays: 7,
  },
  'subscriptions/update-plan': { id: ID, name: 'Pro plan (2026)', active: false },
  'subscriptions/list-plans': { limit: 20, offset: 0 },
  'subscriptions/create': { planId: ID, email: 'ana@example.com', customerId: 'cus_42', language: 'es' },
  'subscriptions/get': { id: ID },
  'subscriptions/list': { planId: ID, limit: 20, offset: 0 },
  'subscriptions/cancel': { id: ID },
  'subscriptions/advance-test-clock': { days: 30 },
};

/** A Markdown line as plain text: its code spans without their backticks. */
function plainText(markdown: string): string {
  return markdown.replace(/`([^`]*)`/g, '$1');
}

/** A string as one single-quoted shell word. */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The operation called with its example body, signed as the API requires: curl (the signature by
 * openssl) and Node (node:crypto), both reading GATEWAY_URL, PUBLIC_KEY and PRIVATE_KEY from the
 * environment, as docs/api.md's examples do.
 */
export function codeSamples(path: string, example: Record<string, unknown>): CodeSample[] {
  const fields = JSON.stringify(example);
  const unsigned = fields === '{}' ? '{"nonce":' : `${fields.slice(0, -1)},"nonce":`;
  return [
    {
      lang: 'shell',
      label: 'curl',
      source: [
        `BODY=${shellQuoted(unsigned)}$(node -p 'Date.now()')'}'`,
        `SIGNATURE=$(printf %s "$BODY" | openssl dgst -sha256 -hmac "$PRIVATE_KEY" | sed 's/^.*= //')`,
        `curl -s "$GATEWAY_URL${path}" \\`,
        `  -H 'content-type: application/json' \\`,
        `  -H "x-api-public-key: $PUBLIC_KEY" \\`,
        `  -H "x-api-signature: $SIGNATURE" \\`,
        `  --data-raw "$BODY"`,
      ].join('\n'),
    },
    {
      lang: 'javascript',
      label: 'Node',
      source: [
        `import { createHmac } from 'node:crypto';`,
        ``,
        `const body = JSON.stringify({ ...${fields}, nonce: Date.now() });`,
        `// The signature is over these exact bytes: send them unchanged.`,
        `const signature = createHmac('sha256', process.env.PRIVATE_KEY).update(body, 'utf8').digest('hex');`,
        `const answer = await fetch(\`\${process.env.GATEWAY_URL}${path}\`, {`,
        `  method: 'POST',`,
        `  headers: { 'content-type': 'application/json', 'x-api-public-key': process.env.PUBLIC_KEY, 'x-api-signature': signature },`,
        `  body,`,
        `});`,
        `console.log(await answer.json());`,
      ].join('\n'),
    },
  ];
}

/** Which key scopes may call an operation, as the document says it. */
function scopesNote(name: OperationName): string {
  const scopes = scopesGranting(OPERATIONS[name].access).map((scope) => `\`${scope}\` (${KEY_SCOPES[scope].label})`);
  return `Key scopes that may call it: ${scopes.join(', ')}. Any other key is answered 403 INSUFFICIENT_SCOPE.`;
}

/** What an error answer says: the table's message with no details, unless an operation says more. */
type ErrorExample = { message: string; details: { path: string; message: string }[] };

/**
 * The error answers, one response per HTTP status, each error name an example of it: the error
 * table's words, or the operation's own where the contract says what it would answer (`own`).
 */
function errorResponses(
  names: readonly ApiErrorName[],
  own: Partial<Record<ApiErrorName, ErrorExample>> = {},
): OpenApiOperation['responses'] {
  const byStatus = new Map<number, ApiErrorName[]>();
  for (const name of names)
    byStatus.set(API_ERRORS[name].status, [...(byStatus.get(API_ERRORS[name].status) ?? []), name]);
  return Object.fromEntries(
    [...byStatus].map(([status, errors]) => [
      String(status),
      {
        description: errors.map((name) => `${name} (${API_ERRORS[name].code}): ${API_ERRORS[name].message}`).join(' '),
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            examples: Object.fromEntries(
              errors.map((name) => {
                const { message, details } = own[name] ?? { message: API_ERRORS[name].message, details: [] };
                return [
                  name,
                  {
                    value: {
                      success: false,
                      error: { code: API_ERRORS[name].code, name, message, details },
                      requestId: ID,
                    },
                  },
                ];
              }),
            ),
          },
        },
      },
    ]),
  );
}

/**
 * An operation's main refusals as the API edge would write them: VALIDATION_ERROR for an empty
 * body (the nonce and each required field named), INSUFFICIENT_SCOPE to a key of a scope that
 * does not grant it.
 */
function ownErrors(name: OperationName): Partial<Record<ApiErrorName, ErrorExample>> {
  const { request, access } = OPERATIONS[name];
  const parsed = request.safeParse({});
  const details = fieldProblems(parsed.success ? [] : parsed.error.issues, {}, [
    { path: 'nonce', message: 'is required' },
  ]);
  const granting = scopesGranting(access);
  const other = KEY_SCOPE_VALUES.find((scope) => !granting.includes(scope));
  return {
    VALIDATION_ERROR: { message: describeProblems(details), details },
    ...(other ? { INSUFFICIENT_SCOPE: scopeRefusal([other], access) } : {}),
  };
}

const ALL_ERRORS = (Object.keys(API_ERRORS) as ApiErrorName[]).filter((name) => name !== 'NOT_SUPPORTED');

/** The body every operation takes: its own fields plus `nonce`. */
function requestBody(schema: z.ZodType, example: Record<string, unknown>) {
  const own = jsonSchema(schema, 'input');
  return {
    required: true,
    content: {
      'application/json': {
        schema: {
          allOf: [own, { type: 'object', properties: { nonce: jsonSchema(nonceField, 'input') }, required: ['nonce'] }],
        },
        example: { ...example, nonce: 1732480000000 },
      },
    },
  };
}

function operationPath(name: OperationName, aliasOf?: OperationName): { post: OpenApiOperation } {
  const { request, response } = OPERATIONS[aliasOf ?? name];
  const answer = jsonSchema(response, 'output');
  const summary = aliasOf ? `${SUMMARIES[aliasOf]} (another spelling of \`${aliasOf}\`)` : SUMMARIES[name];
  return {
    post: {
      operationId: name.replace(/[^A-Za-z0-9]+(.)/g, (_m, c: string) => c.toUpperCase()),
      // Plain text: renderers show the summary as a title, where Markdown's backticks would show as such.
      summary: plainText(summary),
      description: scopesNote(aliasOf ?? name),
      tags: [name.includes('/') ? name.split('/')[0]! : 'base'],
      'x-codeSamples': codeSamples(`/api-gateway/${name}`, EXAMPLES[aliasOf ?? name]),
      requestBody: requestBody(request, EXAMPLES[aliasOf ?? name]),
      responses: {
        '200': {
          description: 'Success.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { success: { const: true }, response: answer },
                required: ['success', 'response'],
              },
              example: { success: true, response: exampleOf(answer) },
            },
          },
        },
        ...errorResponses(ALL_ERRORS, ownErrors(aliasOf ?? name)),
      },
    },
  };
}

function unsupportedPath(path: string, reason: string): { post: OpenApiOperation } {
  const id = path.replace(/[^A-Za-z0-9]+(.)/g, (_m, c: string) => c.toUpperCase());
  return {
    post: {
      operationId: id,
      summary: plainText(`Not supported: ${reason}`),
      tags: ['not supported'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', properties: { nonce: jsonSchema(nonceField, 'input') }, required: ['nonce'] },
          },
        },
      },
      responses: errorResponses([
        'NOT_SUPPORTED',
        'MISSING_CREDENTIALS',
        'UNKNOWN_PUBLIC_KEY',
        'INVALID_SIGNATURE',
        'INVALID_JSON',
        'VALIDATION_ERROR',
      ]),
    },
  };
}

export function openApiDocument(serverUrl = '/') {
  const paths: Record<string, { post: OpenApiOperation }> = {};
  for (const name of Object.keys(OPERATIONS) as OperationName[]) paths[`/api-gateway/${name}`] = operationPath(name);
  for (const [alias, name] of Object.entries(OPERATION_ALIASES))
    paths[`/api-gateway/${alias}`] = operationPath(alias as OperationName, name);
  for (const [path, reason] of Object.entries(UNSUPPORTED_OPERATIONS))
    paths[`/api-gateway/${path}`] = unsupportedPath(path, reason);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Merchant API',
      version: '1',
      description: INTRODUCTION,
    },
    servers: [{ url: serverUrl }],
    security: [{ publicKey: [], signature: [] }],
    paths,
    components: {
      securitySchemes: {
        publicKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-public-key',
          description: 'The public key of an API key.',
        },
        signature: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-signature',
          description:
            "Lower-case hex HMAC-SHA256 of the exact request body bytes, keyed with the private key's UTF-8 bytes.",
        },
      },
      schemas: {
        Error: (() => {
          const schema = jsonSchema(errorEnvelope, 'output') as {
            properties: { error: { properties: { name: JsonSchema } } };
          };
          schema.properties.error.properties.name = { type: 'string', enum: Object.keys(API_ERRORS) };
          return schema;
        })(),
      },
    },
  };
}
