/**
 * What specs use to drive the gateway under test (started by global-setup.ts): its base URL, a
 * test-mode merchant's keys, the signed merchant API, simulated payments and sandbox blocks.
 * Everything goes through the server's public surface (HTTP, the CLIs and their control
 * endpoint): no database access, no mocks.
 */
import { createHmac, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Order, OrderDetails, OrderStatus } from '@/lib/protocol';
import type { PaymentKind, SimulatedPayment } from '@/lib/sandbox';
import { databaseUrlOf, runCliOn } from './server';

// Order: what make-order answers (docs/api.md, "make-order"); OrderDetails: what `order` answers, plus
// received, message, transactions.
export type { Order, OrderDetails, OrderStatus, PaymentKind, SimulatedPayment };

export interface Keys {
  publicKey: string;
  privateKey: string;
}

/** Set by global-setup.ts for the whole run (Playwright hands the runner's environment to its workers). */
function fromSetup(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run the specs with \`npm run test:e2e\` (or \`npx playwright test\`), whose global set-up starts the gateway.`,
    );
  return value;
}

/** Origin of the gateway under test, e.g. `http://127.0.0.1:41234` (also its PUBLIC_BASE_URL). */
export function baseUrl(): string {
  return fromSetup('E2E_BASE_URL');
}

/** Keys of the merchant "e2e" (test mode), created by the set-up with `npm run keys -- create`. */
export function testKeys(): Keys {
  return { publicKey: fromSetup('E2E_PUBLIC_KEY'), privateKey: fromSetup('E2E_PRIVATE_KEY') };
}

/** Distinct across workers and calls: milliseconds and 9 random digits, as a digit string (docs/api.md, "Conventions": up to 30 digits). */
function freshNonce(): string {
  return `${Date.now()}${String(randomInt(1e9)).padStart(9, '0')}`;
}

export interface ApiAnswer<T = unknown> {
  status: number;
  /** The JSON envelope: `{success: true, response}` or `{success: false, error, requestId}`. */
  body:
    | { success: true; response: T }
    | { success: false; error: { code: number; name: string; message: string; details?: unknown }; requestId?: string };
}

/** POSTs `fields` plus a fresh nonce to /api-gateway/<operation>, signed over the exact bytes sent. */
export async function api<T = unknown>(
  operation: string,
  fields: Record<string, unknown>,
  keys: Keys = testKeys(),
): Promise<ApiAnswer<T>> {
  const body = JSON.stringify({ ...fields, nonce: freshNonce() });
  const response = await fetch(`${baseUrl()}/api-gateway/${operation}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-public-key': keys.publicKey,
      'x-api-signature': createHmac('sha256', keys.privateKey).update(body, 'utf8').digest('hex'),
    },
    body,
  });
  return { status: response.status, body: (await response.json()) as ApiAnswer<T>['body'] };
}

/** Like api(), but answers `response` and throws with the error envelope on anything else. */
async function apiOk<T>(operation: string, fields: Record<string, unknown>, keys?: Keys): Promise<T> {
  const answer = await api<T>(operation, fields, keys);
  if (answer.status !== 200 || !answer.body.success)
    throw new Error(`${operation} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.response;
}

export interface MakeOrderFields {
  currency: string;
  network: string;
  amount: string;
  /** The merchant's order id; a fresh `e2e-...` one when absent. */
  order?: string;
  lifetime?: number;
  returnUrl?: string;
  description?: string;
  payerEmail?: string;
  externalUserId?: string;
  [field: string]: unknown;
}

/** make-order with the test merchant's keys (or `keys`); answers the order object. */
export function makeOrder(fields: MakeOrderFields, keys?: Keys): Promise<Order> {
  return apiOk<Order>('make-order', { order: `e2e-${Date.now()}-${randomInt(1e9)}`, ...fields }, keys);
}

/** The `order` operation: the order with what it received and its transactions. */
export function getOrder(orderId: string, keys?: Keys): Promise<OrderDetails> {
  return apiOk<OrderDetails>('order', { orderId }, keys);
}

/**
 * What the payment page's "Simulate payment" does: POST /api/sandbox/pay. `full` pays what is
 * left, `partial` half of it, `over` 10 % more than asked. The order moves once the watcher sees
 * the transfer (detected within about a second, final after SANDBOX_CONFIRMATIONS blocks).
 */
export async function simulatePayment(orderId: string, kind: PaymentKind = 'full'): Promise<SimulatedPayment> {
  const response = await fetch(`${baseUrl()}/api/sandbox/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, kind }),
  });
  const body = (await response.json()) as SimulatedPayment | { error: string };
  if (!response.ok || 'error' in body)
    throw new Error(`sandbox pay answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * Mines `count` sandbox blocks on `network` now, or dated `at`, on the gateway holding `dataDir`
 * (the shared one by default): what `npm run sandbox -- mine NETWORK COUNT [--at ISO]` does, sent
 * to the server's control endpoint when it holds the embedded database (a CLI process would hand
 * it there anyway, for seconds of CPU), run as that CLI when it is on PostgreSQL. A block dated
 * after an order's expiresAt alone does not expire the order: the state machine
 * (lib/orders/lifecycle.ts) also waits for the server's clock to pass expiresAt. A block is never
 * dated before its parent, so a future date also dates every later block of that network: give
 * such tests a network of their own.
 */
export async function mineAt(
  network: string,
  at?: Date,
  count = 1,
  dataDir = fromSetup('E2E_DATA_DIR'),
): Promise<{ network: string; height: number }> {
  if (!databaseUrlOf(dataDir))
    return controlCommand(dataDir, {
      command: 'sandbox.mine',
      network,
      count,
      ...(at ? { at: at.toISOString() } : {}),
    });
  const out = await runCli(
    'sandbox',
    ['mine', network, String(count), ...(at ? ['--at', at.toISOString()] : [])],
    dataDir,
  );
  const match = /^(\S+): mined to height (\d+)$/m.exec(out);
  if (!match) throw new Error(`Unexpected answer from sandbox mine: ${out}`);
  return { network: match[1]!, height: Number(match[2]) };
}

/** A new key of `mode` for the merchant `name` (created when new): `npm run keys -- create`. */
export async function createKeys(name: string, mode: 'test' | 'live' = 'test'): Promise<Keys & { merchantId: string }> {
  const out = await runCli('keys', ['create', '--name', name, '--mode', mode, '--json']);
  const line = out.trim().split('\n').pop() ?? '';
  const created = JSON.parse(line) as { merchantId: string; publicKey: string; privateKey: string };
  return { merchantId: created.merchantId, publicKey: created.publicKey, privateKey: created.privateKey };
}

/**
 * Sends an operator command (lib/admin) to the server holding the embedded database in `dataDir`
 * the way a CLI does while a server runs (scripts/cli-runtime.ts): to the control URL in the data
 * directory's owner.json, with its control token.
 */
async function controlCommand<T>(dataDir: string, command: { command: string; [field: string]: unknown }): Promise<T> {
  const { controlUrl } = JSON.parse(fs.readFileSync(path.join(dataDir, 'owner.json'), 'utf8')) as {
    controlUrl?: string;
  };
  if (!controlUrl) throw new Error(`The process holding ${dataDir} names no control URL: not a server.`);
  const token = fs.readFileSync(path.join(dataDir, 'control-token'), 'utf8').trim();
  const response = await fetch(controlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(command),
  });
  const body = (await response.json()) as { result?: T; error?: string };
  if (!response.ok)
    throw new Error(`${command.command} answered ${response.status}: ${body.error ?? JSON.stringify(body)}`);
  return body.result as T;
}

/**
 * Runs `npm run <script> -- ...` against the data directory of the gateway under test (or of
 * another one started with startGatewayServer): the CLI finds the server holding the embedded
 * database and hands it the command (docs/getting-started.md, "Keys").
 */
export function runCli(
  script: 'keys' | 'sandbox',
  args: string[],
  dataDir = fromSetup('E2E_DATA_DIR'),
): Promise<string> {
  return runCliOn(dataDir, script, args);
}
