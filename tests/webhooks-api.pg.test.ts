/**
 * The merchant's webhook operations over real HTTP on both databases: `webhooks/list` and
 * `webhooks/resend`, scoped to the caller's merchant and mode (404 otherwise).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { dispatcherOptions, startDispatcher, type Dispatcher } from '@/lib/webhooks';
import { network, sandboxChain, watchOnce } from './support/chain';
import { call, withTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { startReceiver, verifyWebhook, type Receiver } from './support/webhook-receiver';
import { waitFor } from './support/worker-process';

let gateway: TestGateway;
let merchant: TestMerchant;
let stranger: TestMerchant;
let receiver: Receiver;
let dispatcher: Dispatcher;

withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  stranger = await createTestMerchant(gateway.db);
  receiver = await startReceiver((_r, i) => (i === 0 ? { status: 500, body: 'not yet' } : { status: 204 }));
  // A minute per attempt (and a lease to match): on a loaded machine the second attempt could
  // outlive the default 10 s, or its lease end before its result was recorded, and be tried a third
  // time (seen: `attempts` 3 where the receiver's answers make 2). Retries are not under test here.
  dispatcher = startDispatcher(
    gateway.db,
    dispatcherOptions({
      policy: { allowPrivate: false, allowed: ['127.0.0.1'] },
      pollMs: 25,
      retryDelaysMs: [50, 50],
      jitter: 0,
      timeoutMs: 60_000,
    }),
  );
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
});

it(
  "lists the delivery log of an order and re-sends an event, for the order's merchant and mode only",
  { timeout: 180_000 },
  async () => {
    const made = await call(
      gateway,
      'make-order',
      {
        currency: 'LTC',
        network: 'litecoin',
        amount: '0.1',
        order: 'api-hook-1',
        successWebhook: receiver.url('/api'),
      },
      merchant.test,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const orderId: string = made.body.response.orderId;
    expect((await call(gateway, 'webhooks/list', { orderId }, merchant.test)).body).toMatchObject({
      success: true,
      response: [],
    });

    await broadcast(gateway.db, {
      network: network('litecoin'),
      to: made.body.response.address,
      tag: null,
      currency: 'LTC',
      amount: 10_000_000n,
    });
    await mine(gateway.db, network('litecoin'), 2);
    await watchOnce(gateway.db, sandboxChain(gateway.db, 'litecoin'));
    await waitFor(
      'delivery on the second attempt',
      60_000,
      async () =>
        (await call(gateway, 'webhooks/list', { orderId }, merchant.test)).body.response[0]?.state === 'delivered',
    );

    const listed = await call(gateway, 'webhooks/list', { orderId }, merchant.test);
    expect(listed.status).toBe(200);
    const [event] = listed.body.response;
    expect(Object.keys(event).sort()).toEqual(
      [
        'attempts',
        'createdAt',
        'deliveredAt',
        'id',
        'invoiceId',
        'invoiceStatus',
        'kind',
        'log',
        'nextAttemptAt',
        'orderId',
        'orderStatus',
        'state',
        'url',
      ].sort(),
    );
    expect(event).toMatchObject({
      orderId,
      invoiceId: null,
      invoiceStatus: null,
      kind: 'success',
      orderStatus: 'processed',
      url: receiver.url('/api'),
      state: 'delivered',
      attempts: 2,
      nextAttemptAt: null,
    });
    expect(
      event.log.map((a: { attempt: number; statusCode: number; outcome: string; responseExcerpt: string }) => [
        a.attempt,
        a.statusCode,
        a.outcome,
        a.responseExcerpt,
      ]),
    ).toEqual([
      [1, 500, 'http_error', 'not yet'],
      [2, 204, 'delivered', ''],
    ]);
    expect(receiver.received.map((r) => r.headers['x-webhook-id'])).toEqual([event.id, event.id]);
    expect(verifyWebhook(receiver.received[1]!, merchant.test.privateKey)).toMatchObject({
      apiSignature: true,
      timestamped: true,
    });

    for (const keys of [stranger.test, merchant.live]) {
      expect((await call(gateway, 'webhooks/list', { orderId }, keys)).status).toBe(404);
      const refused = await call(gateway, 'webhooks/resend', { id: event.id }, keys);
      expect(refused.status).toBe(404);
      expect(refused.body.error.name).toBe('NOT_FOUND');
    }
    expect((await call(gateway, 'webhooks/resend', { id: crypto.randomUUID() }, merchant.test)).status).toBe(404);
    expect((await call(gateway, 'webhooks/list', {}, merchant.test)).body.error).toMatchObject({
      name: 'VALIDATION_ERROR',
      details: [{ path: 'orderId', message: 'is required' }],
    });
    expect(receiver.received).toHaveLength(2);

    const resent = await call(gateway, 'webhooks/resend', { id: event.id }, merchant.test);
    expect(resent.status).toBe(200);
    expect(resent.body.response).toMatchObject({ id: event.id, state: 'pending', attempts: 2 });
    await waitFor('the re-sent webhook', 60_000, () => receiver.received.length === 3);
    expect(receiver.received[2]!.headers).toMatchObject({ 'x-webhook-id': event.id, 'x-webhook-attempt': '3' });
    expect(receiver.received[2]!.raw).toBe(receiver.received[0]!.raw);
  },
);
