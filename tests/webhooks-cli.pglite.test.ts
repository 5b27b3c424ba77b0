/**
 * Webhooks as merchants and operators meet them on the embedded default: the server runs the
 * dispatcher inside the server (RUN_WORKERS), a paid order's webhook reaches a real receiver, the
 * merchant reads the delivery log and re-sends through the signed API (scoped to its own orders),
 * and `npm run webhooks -- list|resend` works through the running server and offline.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/lib/db/client';
import { listAudit } from '@/lib/users';
import { freePort } from '../scripts/lib/postgres.mjs';
import { CLI_TEST_TIMEOUT, newDataDir, runCli, startServer, stopServer } from './support/cli';
import { call, type Keys } from './support/gateway';
import { startReceiver, verifyWebhook, type Receiver } from './support/webhook-receiver';
import { waitFor } from './support/worker-process';
import { childEnv } from './support/test-env';

const STACK_FRAME = /^\s+at\s/m;
/** The server's watcher and dispatcher pass every 100 ms when idle; generous for a loaded machine. */
const SERVER_MS = 120_000;

let env: NodeJS.ProcessEnv;
let dataDir: string;
/** The shop's keys as `keys create --json` answers them, with its merchant (whose audit log the test reads). */
let keys: Keys & { merchantId: string };
let stranger: Keys;
let receiver: Receiver;

const cli = (script: 'webhooks' | 'keys' | 'sandbox', ...args: string[]) => runCli(env, script, ...args);

const serverEnv = () => ({ ...env, RUN_WORKERS: 'true', WATCH_INTERVAL_MS: '100', SANDBOX_BLOCK_SECONDS: '0' });

describe('webhooks on the embedded database: API and CLI', () => {
  let orderId: string;
  let eventId: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    dataDir = newDataDir('gw-webhooks-cli-');
    env = {
      ...childEnv(),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      DEMO_STORE: 'false',
      ADDRESS_POOL_SIZE: '16',
      WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
      WEBHOOK_POLL_MS: '100',
    };
    delete env.DATABASE_URL;
    delete env.APP_SECRET;
  });

  afterAll(async () => {
    await receiver?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'the server delivers, the merchant lists and re-sends through the API, the operator through the CLI',
    { timeout: CLI_TEST_TIMEOUT },
    async () => {
      const port = await freePort();
      const server = await startServer(serverEnv(), port);
      const gateway = { baseUrl: `http://127.0.0.1:${port}` };
      try {
        // Through the server (the CLI then opens no database of its own: a second of CPU less each).
        keys = JSON.parse((await cli('keys', 'create', '--name', 'Webhook shop', '--mode', 'test', '--json')).stdout);
        stranger = JSON.parse((await cli('keys', 'create', '--name', 'Other shop', '--mode', 'test', '--json')).stdout);
        const made = await call(
          gateway,
          'make-order',
          {
            currency: 'LTC',
            network: 'litecoin',
            amount: '0.25',
            order: 'hook-1',
            successWebhook: receiver.url('/paid'),
          },
          keys,
        );
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        orderId = made.body.response.orderId;
        expect((await cli('sandbox', 'pay', orderId, '0.25')).code).toBe(0);
        expect((await cli('sandbox', 'mine', 'litecoin', '2')).code).toBe(0);

        await waitFor('the webhook from the server', SERVER_MS, () => receiver.received.length === 1, server.output);
        const first = receiver.received[0]!;
        eventId = String(first.headers['x-webhook-id']);
        expect(first.path).toBe('/paid');
        expect(first.body).toMatchObject({
          event: 'ORDER',
          id: eventId,
          orderId,
          status: 'processed',
          received: '0.25',
        });
        expect(verifyWebhook(first, keys.privateKey)).toMatchObject({ apiSignature: true, timestamped: true });
        expect(first.headers['x-api-public-key']).toBe(keys.publicKey);

        // The merchant's delivery log over the signed API.
        await waitFor(
          'the attempt recorded',
          SERVER_MS,
          async () =>
            (await call(gateway, 'webhooks/list', { orderId }, keys)).body.response?.[0]?.state === 'delivered',
        );
        const listed = await call(gateway, 'webhooks/list', { orderId }, keys);
        expect(listed.status).toBe(200);
        expect(listed.body.response).toEqual([
          expect.objectContaining({
            id: eventId,
            orderId,
            kind: 'success',
            orderStatus: 'processed',
            url: receiver.url('/paid'),
            state: 'delivered',
            attempts: 1,
            nextAttemptAt: null,
            log: [
              expect.objectContaining({
                attempt: 1,
                statusCode: 200,
                outcome: 'delivered',
                responseExcerpt: 'ok',
                error: null,
              }),
            ],
          }),
        ]);
        // Another merchant, or the same merchant's live mode, does not see it.
        expect((await call(gateway, 'webhooks/list', { orderId }, stranger)).status).toBe(404);
        expect((await call(gateway, 'webhooks/resend', { id: eventId }, stranger)).status).toBe(404);
        expect((await call(gateway, 'webhooks/resend', { id: 'not-an-id' }, keys)).status).toBe(404);
        expect((await call(gateway, 'webhooks/resend', {}, keys)).status).toBe(400);
        expect(receiver.received).toHaveLength(1);

        const resent = await call(gateway, 'webhooks/resend', { id: eventId }, keys);
        expect(resent.status).toBe(200);
        expect(resent.body.response).toMatchObject({ id: eventId, state: 'pending' });
        await waitFor('the re-sent webhook', SERVER_MS, () => receiver.received.length === 2, server.output);
        expect(receiver.received[1]!.headers).toMatchObject({ 'x-webhook-id': eventId, 'x-webhook-attempt': '2' });
        expect(receiver.received[1]!.raw).toBe(first.raw);

        // The operator's CLI, through the server that holds the embedded database.
        const resentByCli = await cli('webhooks', 'resend', eventId);
        expect(resentByCli.code, resentByCli.stderr).toBe(0);
        expect(resentByCli.stdout).toContain('Queued');
        await waitFor('the webhook re-sent by the CLI', SERVER_MS, () => receiver.received.length === 3, server.output);
        expect(receiver.received[2]!.headers['x-webhook-attempt']).toBe('3');
        await waitFor(
          'three attempts recorded',
          SERVER_MS,
          async () => (await call(gateway, 'webhooks/list', { orderId }, keys)).body.response[0].log.length === 3,
        );
        const listedByCli = await cli('webhooks', 'list', orderId);
        expect(listedByCli.code, listedByCli.stderr).toBe(0);
        expect(listedByCli.stdout).toContain(`${eventId}  success webhook (order processed)  delivered, 3 attempt(s)`);
        expect(listedByCli.stdout).toMatch(/#3 {2}\S+ {2}200 delivered {2}\d+ ms/);
        expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'owner.json'), 'utf8')).pid).toBe(server.child.pid);
      } finally {
        await stopServer(server.child);
      }
    },
  );

  it(
    'lists and re-sends offline; the next server start delivers what was queued',
    { timeout: CLI_TEST_TIMEOUT },
    async () => {
      expect(eventId, 'the first test delivered a webhook').toBeTruthy();
      expect(fs.existsSync(path.join(dataDir, 'owner.json'))).toBe(false);
      const listed = await cli('webhooks', 'list', orderId, '--json');
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ id: eventId, state: 'delivered', attempts: 3 }),
      ]);
      const resent = await cli('webhooks', 'resend', eventId, '--json');
      expect(resent.code, resent.stderr).toBe(0);
      expect(JSON.parse(resent.stdout)).toMatchObject({ id: eventId, state: 'pending', attempts: 3 });
      // Both of the operator's resends (through the server, then offline) are in the merchant's audit
      // log, as the dashboard's Resend is, by `cli`; the merchant's own API resend is not an operator's.
      const db = await openDatabase({ dataDir });
      try {
        const audited = (await listAudit(db, keys.merchantId)).rows.filter((row) => row.action === 'webhook.resend');
        expect(audited.map(({ actor, detail }) => ({ actor, detail }))).toEqual([
          { actor: 'cli', detail: { eventId, mode: 'test' } },
          { actor: 'cli', detail: { eventId, mode: 'test' } },
        ]);
      } finally {
        await db.close();
      }

      // A refusal of the command, and an argument mistake (the others: scripts/lib/cli-requests.test.ts).
      for (const [args, message] of [
        [['resend', crypto.randomUUID()], /No webhook event/],
        [['list'], /usage:/],
      ] as const) {
        const result = await cli('webhooks', ...args);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toMatch(message);
        expect(result.stderr).not.toMatch(STACK_FRAME);
      }

      const server = await startServer(serverEnv(), await freePort());
      try {
        await waitFor(
          'the queued webhook after the start',
          SERVER_MS,
          () => receiver.received.length === 4,
          server.output,
        );
        expect(receiver.received[3]!.headers).toMatchObject({ 'x-webhook-id': eventId, 'x-webhook-attempt': '4' });
      } finally {
        await stopServer(server.child);
      }
    },
  );
});
