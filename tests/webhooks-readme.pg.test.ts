/**
 * The webhook receivers of docs/webhooks.md (Node and Python) run as a newcomer runs them: in a
 * fresh shell in a folder laid out as after `npm start` (data/demo-store.json with the merchant's
 * test keys), with nothing exported but PATH, HOME and PORT, the override the examples document.
 * The dispatcher sends them a success and an error webhook: each verifies the signature with the
 * merchant's private key and prints the event; a tampered or stale webhook is answered 401.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { dispatcherOptions, startDispatcher, type Dispatcher } from '@/lib/webhooks';
import { openTestDatabase } from './support/database';
import { after, createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { closedPort } from './support/webhook-receiver';
import { waitFor } from './support/worker-process';
import { docCodeAfter, exampleScript, freshShellEnv, newcomerFolder } from './support/docs';

let db: Database;
let merchant: TestMerchant;
let dir: string;
let dispatcher: Dispatcher | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
  dir = newcomerFolder({ merchantId: merchant.merchantId, ...merchant.test });
});
afterEach(async () => {
  await dispatcher?.stop();
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
});
afterAll(async () => {
  await db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the example `marker` of docs/webhooks.md in a fresh `bash -c` in the newcomer's folder, listening on `port`. */
async function startExample(marker: string, port: number): Promise<{ lines: () => Record<string, unknown>[] }> {
  const script = exampleScript(dir, docCodeAfter('docs/webhooks.md', marker));
  // A process group of its own, so that afterEach ends the shell and the receiver it started together.
  const child = spawn('bash', ['-c', script], {
    cwd: dir,
    env: freshShellEnv(dir, { PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  await waitFor(`${script} to listen`, 15_000, async () => {
    if (child.exitCode !== null) throw new Error(`${script} exited: ${stderr}`);
    return fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then(
      () => true,
      () => false,
    );
  });
  return {
    lines: () =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** A success webhook (paid order on `net`) and an error webhook (expired order on `expiring`) to `url`. */
async function twoWebhooks(
  url: string,
  net: string,
  ticker: string,
  units: bigint,
  expiring: string,
  expiringTicker: string,
) {
  const paid = await createOrder(db, merchant.test, {
    currency: ticker,
    network: net,
    amount: '1',
    successWebhook: url,
  });
  await broadcast(db, { network: network(net), to: paid.address, tag: paid.tag, currency: ticker, amount: units });
  await mine(db, network(net), 2);
  await watchOnce(db, sandboxChain(db, net));
  const expired = await createOrder(db, merchant.test, {
    currency: expiringTicker,
    network: expiring,
    amount: '1',
    errorWebhook: url,
  });
  await mine(db, network(expiring), 1, after(expired.expires_at, 1));
  await watchOnce(db, sandboxChain(db, expiring), { now: after(expired.expires_at, 2) });
  expect((await orderRow(db, paid.id)).status).toBe('processed');
  expect((await orderRow(db, expired.id)).status).toBe('expired');
  return { paid, expired };
}

/** What the receiver answers to a webhook signed with another key, and to a correctly signed but stale one. */
async function refusals(port: number): Promise<number[]> {
  const body = JSON.stringify({ event: 'ORDER', id: 'forged', orderId: 'x', status: 'processed' });
  const signed = (key: string, t: number) =>
    `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
  const now = Math.floor(Date.now() / 1000);
  const statuses = [];
  for (const signature of [
    signed(merchant.live.privateKey, now),
    signed(merchant.test.privateKey, now - 3600),
    'garbage',
  ]) {
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'x-webhook-signature': signature },
      body,
    });
    statuses.push(response.status);
  }
  return statuses;
}

for (const [language, nets] of [
  ['Node', ['bitcoin', 'BTC', 100_000_000n, 'dogecoin', 'DOGE']],
  ['Python', ['litecoin', 'LTC', 100_000_000n, 'bitcoincash', 'BCH']],
] as const) {
  it(
    `the docs' ${language} receiver verifies both webhook kinds and refuses forged or stale ones`,
    { timeout: 120_000 },
    async () => {
      const port = await closedPort();
      const receiver = await startExample(`<!-- example:webhook-${language.toLowerCase()}`, port);
      expect(await refusals(port)).toEqual([401, 401, 401]);
      const [net, ticker, units, expiring, expiringTicker] = nets;
      const { paid, expired } = await twoWebhooks(
        `http://127.0.0.1:${port}/hook`,
        net,
        ticker,
        units,
        expiring,
        expiringTicker,
      );
      const ids = await db.query<{ id: string; order_id: string }>(
        'select id, order_id from webhook_events where order_id = any($1::uuid[])',
        [[paid.id, expired.id]],
      );
      dispatcher = startDispatcher(
        db,
        dispatcherOptions({
          policy: { allowPrivate: false, allowed: ['127.0.0.1'] },
          pollMs: 25,
          retryDelaysMs: [100],
        }),
      );
      await waitFor('both webhooks accepted by the receiver', 60_000, async () => {
        const [row] = await db.query<{ n: number }>(
          `select count(*)::int as n from webhook_events where order_id = any($1::uuid[]) and state = 'delivered'`,
          [[paid.id, expired.id]],
        );
        return row!.n === 2;
      });
      const byOrder = new Map(ids.map((r) => [r.order_id, r.id]));
      expect(receiver.lines().sort((a, b) => String(a.status).localeCompare(String(b.status)))).toEqual([
        { id: byOrder.get(expired.id), orderId: expired.id, status: 'expired' },
        { id: byOrder.get(paid.id), orderId: paid.id, status: 'processed' },
      ]);
    },
  );
}
