/**
 * Live mode on a real chain: litecoind in regtest (Debian's package, started here on 127.0.0.1
 * with a temporary data directory), the UTXO adapter over its JSON-RPC, the watcher and the state
 * machine, orders made with a live key. The node's wallet pays; nothing is mocked.
 */
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import type { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LiveAdapter } from '@/lib/chains/live';
import { JsonRpcClient } from '@/lib/chains/utxo/rpc';
import { formatUnits, parseUnits } from '@/lib/money';
import type { Database } from '@/lib/db/client';
import { findApiKey } from '@/lib/merchants';
import { findOperations } from '@/lib/operations';
import type { Litecoind } from '../scripts/lib/litecoind.mjs';
import { createOrder, orderRow } from './support/chain';
import { randomChain, waitFor, watchLive, withLiveNetwork, type WebhookReceiver } from './support/live';
import { litecoindNetwork } from './support/live-networks';
import type { TestMerchant } from './support/merchants';

const LTC = { currency: 'LTC', network: 'litecoin' };
const CONFIRMATIONS = 3;

const wallet = randomChain("m/84'/1'/0'/0");
const chain: HDKey = wallet.node;
let node: Litecoind;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;
let receiver: WebhookReceiver;
withLiveNetwork(
  litecoindNetwork({ xpub: wallet.xpub, confirmations: CONFIRMATIONS }),
  (live) => ({ node, db, merchant, adapter, receiver } = live),
);

async function payments(orderId: string) {
  return db.query<{ tx_hash: string; status: string; confirmations: number; amount: string }>(
    'select tx_hash, status, confirmations, amount from payments where order_id = $1 order by created_at',
    [orderId],
  );
}

async function successWebhooks(orderId: string) {
  return db.query<{ kind: string }>("select kind from webhook_events where order_id = $1 and kind = 'success'", [
    orderId,
  ]);
}

describe('live litecoin (litecoind regtest)', () => {
  it('make-order with a live key, exact payment from the node wallet, mined to the confirmations: processed, webhook, find-tx', async () => {
    const order = await createOrder(db, merchant.live, { ...LTC, amount: '0.5', successWebhook: receiver.url });
    expect(order.address).toMatch(/^rltc1q/);
    const tx = await node.rpc('sendtoaddress', order.address, '0.5');

    await watchLive(db, adapter);
    expect(await payments(order.id)).toEqual([
      { tx_hash: tx, status: 'pending', confirmations: 0, amount: '50000000' },
    ]);

    await node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect((await payments(order.id))[0]).toMatchObject({ status: 'pending', confirmations: CONFIRMATIONS - 1 });
    expect((await orderRow(db, order.id)).status).toBe('pending');

    await node.mine(1);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '50000000' });

    const hook = await waitFor('the success webhook', async () =>
      receiver.received.find((r) => JSON.stringify(r.body).includes(order.id)),
    );
    expect(hook.body).toMatchObject({ event: 'ORDER' });
    expect(JSON.stringify(hook.body)).toContain('processed');
    expect(hook.headers['x-api-signature']).toMatch(/^[0-9a-f]{64}$/);

    const key = (await findApiKey(db, merchant.live.publicKey))!;
    const found = await findOperations(db, key, tx.toUpperCase());
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      type: 'IN',
      source: 'ORDER',
      address: order.address,
      result: { tx, status: 'processed', amount: '0.5' },
    });
  });

  it('a reorganisation (invalidateblock, double spend) before finality un-counts the payment, with no success webhook', async () => {
    const order = await createOrder(db, merchant.live, { ...LTC, amount: '0.3', successWebhook: receiver.url });
    const tx = await node.rpc('sendtoaddress', order.address, '0.3');
    const [block] = await node.mine(1);
    await watchLive(db, adapter);
    expect((await payments(order.id))[0]).toMatchObject({ tx_hash: tx, status: 'pending', confirmations: 1 });

    // The block leaves the best chain and its transaction goes back to the mempool; a new block
    // with a conflicting spend of the same coins evicts it; the new chain is longer.
    await node.rpc('invalidateblock', block);
    await node.rpc('generateblock', await node.rpc('getnewaddress', '', 'bech32'), [await doubleSpend(tx)]);
    await node.mine(1);
    expect(await node.rpc('getrawmempool')).not.toContain(tx);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
    expect((await payments(order.id)).map((p) => p.status)).not.toContain('processed');

    // Far past the confirmations the old chain would have given: still nothing counted.
    await node.mine(CONFIRMATIONS + 1);
    await watchLive(db, adapter);
    expect((await orderRow(db, order.id)).status).toBe('pending');
    expect(await successWebhooks(order.id)).toEqual([]);
    expect(receiver.received.some((r) => JSON.stringify(r.body).includes(order.id))).toBe(false);
  });

  it('a deposit to a final order is an orphan deposit; spending it from the deposit address records its out transaction', async () => {
    const order = await createOrder(db, merchant.live, { ...LTC, amount: '0.1' });
    await node.rpc('sendtoaddress', order.address, '0.1');
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect((await orderRow(db, order.id)).status).toBe('processed');

    const late = await node.rpc('sendtoaddress', order.address, '0.25');
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    const [deposit] = await db.query<{ kind: string; status: string; stage: string; in_output_index: number }>(
      'select kind, status, stage, in_output_index from deposits where in_tx_hash = $1',
      [late],
    );
    expect(deposit).toMatchObject({ kind: 'ORPHAN', status: 'PROCESSED', stage: 'DEPOSIT' });

    // The merchant sweeps the deposit address with its own key.
    const [{ derivation_index }] = (await db.query<{ derivation_index: string }>(
      'select derivation_index from addresses where id = $1',
      [order.address_id],
    )) as [{ derivation_index: string }];
    await node.rpc('importprivkey', wif(chain.deriveChild(Number(derivation_index)).privateKey!), '', false);
    const sweepTo = await node.rpc('getnewaddress', '', 'bech32');
    const raw = await node.rpc('createrawtransaction', [{ txid: late, vout: deposit!.in_output_index }], {
      [sweepTo]: '0.2499',
    });
    const signed = await node.rpc('signrawtransactionwithwallet', raw);
    expect(signed.complete).toBe(true);
    const out = await node.rpc('sendrawtransaction', signed.hex);
    await node.mine(1);
    await watchLive(db, adapter);
    const [after] = await db.query<{ stage: string; out_tx_hash: string; out_address: string }>(
      'select stage, out_tx_hash, out_address from deposits where in_tx_hash = $1',
      [late],
    );
    expect(after).toEqual({ stage: 'WITHDRAWAL', out_tx_hash: out, out_address: sweepTo });
    const key = (await findApiKey(db, merchant.live.publicKey))!;
    expect(await findOperations(db, key, out)).toMatchObject([{ type: 'OUT', source: 'ORPHAN_DEPOSIT' }]);
  });

  it('by chain time: seen in the mempool before expiry and mined after counts; one litoshi short is partial; nothing is expired', async () => {
    const inTime = await createOrder(db, merchant.live, { ...LTC, amount: '0.2', successWebhook: receiver.url });
    const short = await createOrder(db, merchant.live, { ...LTC, amount: '0.5' });
    const half = await createOrder(db, merchant.live, { ...LTC, amount: '1' });
    const unpaid = await createOrder(db, merchant.live, { ...LTC, amount: '0.7' });

    await node.rpc('sendtoaddress', short.address, '0.49999999');
    await node.rpc('sendtoaddress', half.address, '0.5');
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    // Confirmed, yet one litoshi under the amount: unpaid.
    expect(await orderRow(db, short.id)).toMatchObject({ status: 'pending', received: '49999999' });
    expect(await orderRow(db, half.id)).toMatchObject({ status: 'pending', received: '50000000' });

    const tx = await node.rpc('sendtoaddress', inTime.address, '0.2');
    await watchLive(db, adapter); // seen in the mempool, before expiry
    expect((await payments(inTime.id))[0]).toMatchObject({ tx_hash: tx, confirmations: 0 });

    // The node's clock jumps past every deadline: the next blocks are after expiry.
    const late = Math.ceil(inTime.expires_at.getTime() / 1000) + 600;
    await node.rpc('setmocktime', late);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter, new Date(late * 1000));

    expect(await orderRow(db, inTime.id)).toMatchObject({ status: 'processed', received: '20000000' });
    expect(await orderRow(db, short.id)).toMatchObject({ status: 'partial', received: '49999999' });
    expect(await orderRow(db, half.id)).toMatchObject({ status: 'partial', received: '50000000' });
    expect((await orderRow(db, unpaid.id)).status).toBe('expired');
    await waitFor('the in-time success webhook', async () =>
      receiver.received.find((r) => JSON.stringify(r.body).includes(inTime.id)),
    );
  });
});

/** A signed transaction (not broadcast) spending the coins of wallet transaction `txid` to the wallet itself. */
async function doubleSpend(txid: string): Promise<string> {
  const original = await node.rpc('getrawtransaction', txid, true);
  // The gateway's own RPC client reads amounts as text: no amount passes through a float.
  const rpc = new JsonRpcClient(
    { url: node.url, user: node.user, password: node.password, timeoutMs: 10_000 },
    'test litecoind',
  );
  const outputs = z.object({ vout: z.array(z.object({ value: z.string() })) });
  let total = 0n;
  for (const input of original.vin) {
    const previous = await rpc.call('getrawtransaction', [input.txid, true], outputs);
    const value = parseUnits(previous.vout[input.vout]!.value, 8);
    if (!value.ok) throw new Error(`unreadable amount ${previous.vout[input.vout]!.value}`);
    total += value.value;
  }
  const to = await node.rpc('getnewaddress', '', 'bech32');
  const raw = await node.rpc(
    'createrawtransaction',
    original.vin.map((i: { txid: string; vout: number }) => ({ txid: i.txid, vout: i.vout })),
    { [to]: formatUnits(total - 100_000n, 8) },
  );
  const signed = await node.rpc('signrawtransactionwithwallet', raw);
  return signed.hex;
}

/** Regtest WIF of a compressed private key. */
function wif(privateKey: Uint8Array): string {
  return createBase58check(sha256).encode(Uint8Array.from([0xef, ...privateKey, 0x01]));
}
