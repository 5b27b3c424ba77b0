/**
 * Collecting a merchant's deposits on litecoind regtest, started without `-txindex`: the gateway
 * prepares a PSBT, `npm run signer` signs it with the public test seed (and, separately,
 * litecoind's own wallet holding the same keys does), the node mines it, the watcher confirms the
 * plan, and the funds are gone from the deposit addresses. The signer reads the plan from the API
 * and submits its signature there (`--from-api`, over HTTP to this process's API front); the
 * gateway's node broadcasts it; the plan's `collection.completed` event reaches a webhook endpoint.
 * Then the attacks a signer must survive on a real chain: a plan made stale by an output spent
 * elsewhere (`collection.stale`), and a payment after the plan. Nothing is mocked; the seed never
 * reaches the gateway, which the test checks in its database.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { WIF } from '@scure/btc-signer';
import { hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { parseKeyDescriptor } from '@/lib/chains/utxo/transactions';
import type { Database } from '@/lib/db/client';
import { collectionPlan, fundsOf, gapLimitOf, prepareCollection, setTreasury } from '@/lib/payouts';
import { collectionPlanSchema, eventResponse, type CollectionPlan } from '@/lib/protocol';
import { serveApi } from '@/lib/api/http-front';
import { createKey } from '@/lib/merchants';
import type { Litecoind } from '../scripts/lib/litecoind.mjs';
import { formatUnits } from '@/lib/money';
import { callInProcess, useDatabaseForApi } from './support/api-in-process';
import { createOrder, orderRow } from './support/chain';
import { expectDocumented } from './support/contract';
import { watchLive, withLiveNetwork } from './support/live';
import { litecoindNetwork } from './support/live-networks';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import type { Keys } from './support/gateway';
import { fileTempDir } from './support/temp-dir';
import type { LiveAdapter } from '@/lib/chains/live';

const run = promisify(execFile);
const WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(WORDS), { private: 0x04358394, public: 0x043587cf });
const account = root.derive("m/84'/1'/0'");
const DESCRIPTOR = `wpkh([73c5da0a/84h/1h/0h]${account.publicExtendedKey}/0/*)`;
const LTC = { currency: 'LTC', network: 'litecoin' };

let node: Litecoind;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;
withLiveNetwork(
  litecoindNetwork({ xpub: DESCRIPTOR, confirmations: 1, txindex: false }),
  (live) => ({ node, db, merchant, adapter } = live),
);

const dir = fileTempDir('gw-signer-');
const seedFile = path.join(dir, 'seed.txt');
fs.writeFileSync(seedFile, `${WORDS}\n`, { mode: 0o600 });

/** A call to one of the node's wallets (several are loaded, so the wallet is named in the URL). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-RPC answers, read field by field in the test
async function walletRpc(wallet: string, method: string, ...params: unknown[]): Promise<any> {
  const response = await fetch(`${node.url}wallet/${wallet}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${node.user}:${node.password}`).toString('base64')}`,
    },
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result: unknown; error: { message: string } | null };
  if (body.error) throw new Error(`litecoind ${method}: ${body.error.message}`);
  return body.result;
}

/**
 * `npm run signer` as the merchant runs it, the plan from a file or, with `api`, read from the
 * gateway and the signature submitted there; answers its exit code, output and the signed file.
 */
async function signer(plan: CollectionPlan, config: Record<string, unknown>, api?: { url: string; keys: Keys }) {
  const planFile = path.join(dir, `plan-${plan.planId}.json`);
  const configFile = path.join(dir, 'signer.json');
  const out = path.join(dir, `signed-${plan.planId}.json`);
  fs.writeFileSync(planFile, JSON.stringify(plan));
  fs.writeFileSync(configFile, JSON.stringify(config));
  const keyFile = path.join(dir, 'api-key.json');
  if (api) fs.writeFileSync(keyFile, JSON.stringify(api.keys), { mode: 0o600 });
  const source = api ? ['--from-api', api.url, '--plan-id', plan.planId, '--api-key', keyFile] : ['--plan', planFile];
  const args = [
    'scripts/cli.mjs',
    'signer',
    'sign',
    ...source,
    '--config',
    configFile,
    '--seed-file',
    seedFile,
    '--out',
    out,
    '--yes',
  ];
  let result: { code: number; stdout: string; stderr: string };
  try {
    result = { code: 0, ...(await run(process.execPath, args, { cwd: path.resolve(__dirname, '..') })) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    result = { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
  // What the signer prints and writes holds neither the phrase nor a private key.
  const written = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  for (const text of [result.stdout, result.stderr, written]) {
    expect(text).not.toContain('abandon');
    expect(text).not.toContain(account.privateExtendedKey.slice(0, 20));
  }
  return {
    code: result.code,
    stderr: result.stderr,
    signed: written ? (JSON.parse(written) as { txid: string; rawTx: string; signedPsbt: string }) : null,
  };
}

/** The merchant API over HTTP, served by this process on the test's database: what `--from-api` talks to. */
async function apiServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (!serveApi(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The `collection.*` events of a plan, and the bodies delivered to the merchant's endpoints. */
async function collectionEvents(planId: string) {
  const recorded = await db.query<{ type: string; data: string }>(
    `select type, data from events where object_id = $1 order by position`,
    [planId],
  );
  const delivered = await db.query<{ body: string }>(
    `select body from webhook_events where kind = 'endpoint' and event_type like 'collection.%' and body like $1`,
    [`%${planId}%`],
  );
  return {
    recorded: recorded.map((e) => ({ type: e.type, data: JSON.parse(e.data) })),
    // Each body is the event as events/list answers it: checked against the wire contract.
    delivered: delivered.map((d) => eventResponse.parse(JSON.parse(d.body))),
  };
}

let treasury: string;
let planner: Keys;
const signerConfig = () => ({
  network: 'litecoin',
  chain: 'regtest',
  treasury,
  maxFee: '0.001',
  node: { url: node.url, user: node.user, password: node.password },
});

describe('collections on litecoind regtest without -txindex', () => {
  it('30 paid orders and 5 expired: one PSBT, signed by the signer and by litecoind, mined, confirmed, nothing left', async () => {
    treasury = await node.rpc('getnewaddress', '', 'bech32');
    await setTreasury(db, { merchantId: merchant.merchantId, network: 'litecoin', mode: 'live', address: treasury });
    const orders = [];
    for (let i = 0; i < 35; i++)
      orders.push(await createOrder(db, merchant.live, { ...LTC, amount: `0.0${(i % 9) + 1}` }));
    const unpaid = new Set([3, 10, 17, 24, 31]);
    let expected = 0n;
    for (const [i, order] of orders.entries()) {
      if (unpaid.has(i)) continue;
      await node.rpc('sendtoaddress', order.address, `0.0${(i % 9) + 1}`);
      expected += BigInt((i % 9) + 1) * 1_000_000n;
      // The wallet spends its own unconfirmed change at most 25 deep (the mempool's ancestor limit).
      if (i % 10 === 9) await node.mine(1);
    }
    await node.mine(1);
    await watchLive(db, adapter);
    const late = Math.ceil(orders.at(-1)!.expires_at.getTime() / 1000) + 600;
    await node.rpc('setmocktime', late);
    await node.mine(1);
    await watchLive(db, adapter, new Date(late * 1000));
    for (const [i, order] of orders.entries())
      expect((await orderRow(db, order.id)).status).toBe(unpaid.has(i) ? 'expired' : 'processed');

    // Each expired order left one unused address between paid ones.
    expect(await gapLimitOf(db, 'litecoin', 'live')).toMatchObject({ longestUnusedRun: 1 });
    const [funds] = await fundsOf(db, merchant.merchantId, 'live');
    expect(funds).toMatchObject({ network: 'litecoin', total: expected, addresses: 30, outputs: 30 });
    // The same lines through the signed API (funds/list), in the coin's decimals and with the treasury.
    useDatabaseForApi(db);
    const funded = await callInProcess('funds/list', {}, merchant.live);
    expectDocumented('funds/list', { ...funded, headers: new Headers() });
    // No fee estimate on a fresh regtest chain: the cost is null (documented), the rest exact.
    expect(funded.body.response).toEqual({
      funds: [
        {
          network: 'litecoin',
          currency: 'LTC',
          total: formatUnits(expected, 8),
          addresses: 30,
          outputs: 30,
          estimatedCost: funds!.estimatedCost === null ? null : formatUnits(funds!.estimatedCost, 8),
          feeRate: funds!.feeRate?.toString() ?? null,
          costPerAddress: null,
          treasury,
        },
      ],
      // No EVM network: no gas left.
      gasLeft: [],
    });
    // Another merchant's key sees none of it.
    const other = await createTestMerchant(db);
    expect((await callInProcess('funds/list', {}, other.live)).body.response).toEqual({ funds: [], gasLeft: [] });

    // Prepared through the signed API by a key of the signing-plans scope (a full key may not).
    planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'Signer',
      scopes: ['read-only', 'signing-plans'],
    });
    expect((await callInProcess('collections/prepare', { network: 'litecoin' }, merchant.live)).status).toBe(403);
    const prepared = await callInProcess('collections/prepare', { network: 'litecoin', feeRate: '2' }, planner);
    expectDocumented('collections/prepare', { ...prepared, headers: new Headers() });
    expect(prepared.status).toBe(200);
    const plan = collectionPlanSchema.parse(prepared.body.response);
    expect(plan.inputs).toHaveLength(30);
    expect((await callInProcess('collections/get', { id: plan.planId }, planner)).body.response).toEqual(plan);
    const listed = await callInProcess('collections/list', {}, planner);
    expectDocumented('collections/list', { ...listed, headers: new Headers() });
    expect(listed.body.response.plans).toEqual([
      expect.objectContaining({ planId: plan.planId, status: 'prepared', inputs: 30, total: plan.total, treasury }),
    ]);
    // Another merchant's signing key finds no such plan; a second prepare finds nothing left to plan.
    const stranger = await createKey(db, other.merchantId, 'live', {
      name: 'S',
      scopes: ['read-only', 'signing-plans'],
    });
    expect((await callInProcess('collections/get', { id: plan.planId }, stranger)).body.error.name).toBe('NOT_FOUND');
    const again = await callInProcess('collections/prepare', { network: 'litecoin', feeRate: '2' }, planner);
    expect(again.body.error).toMatchObject({ name: 'PLAN_REFUSED', message: 'nothing to collect on litecoin' });
    const [audit] = await db.query<{ actor: string; detail: { planId: string } }>(
      `select actor, detail from audit_log where action = 'collection.prepare' and merchant_id = $1`,
      [merchant.merchantId],
    );
    expect(audit).toEqual({ actor: `API key ${planner.publicKey}`, detail: { planId: plan.planId, mode: 'live' } });
    const decoded = await node.rpc('decodepsbt', plan.psbt);
    expect(decoded.inputs).toHaveLength(30);
    for (const [i, input] of decoded.inputs.entries()) {
      expect(input.non_witness_utxo?.txid).toBe(decoded.tx.vin[i].txid);
      expect(input.bip32_derivs).toEqual([
        expect.objectContaining({
          master_fingerprint: '73c5da0a',
          path: expect.stringMatching(/^m\/84'\/1'\/0'\/0\/\d+$/),
        }),
      ]);
    }
    expect(decoded.tx.vout).toHaveLength(1);
    expect(decoded.tx.vout[0].scriptPubKey.addresses ?? [decoded.tx.vout[0].scriptPubKey.address]).toEqual([treasury]);

    // litecoind's own wallet, holding the test seed's private keys (imported here, in the test only).
    // Debian's litecoind has no descriptor wallets (no sqlite): a legacy wallet imports the
    // ranged private descriptor with importmulti.
    await node.rpc('createwallet', 'seed', false, true);
    const info = await node.rpc('getdescriptorinfo', `wpkh([73c5da0a/84h/1h/0h]${account.privateExtendedKey}/0/*)`);
    const privateDescriptor = `wpkh([73c5da0a/84h/1h/0h]${account.privateExtendedKey}/0/*)#${info.checksum}`;
    const imported = await walletRpc('seed', 'importmulti', [
      { desc: privateDescriptor, range: [0, 200], timestamp: 'now', keypool: false, watchonly: false },
    ]);
    expect(imported[0].success).toBe(true);
    const byNode = await walletRpc('seed', 'walletprocesspsbt', plan.psbt, true, 'ALL');
    expect(byNode.complete).toBe(true);
    const nodeTx = await node.rpc('finalizepsbt', byNode.psbt);

    const signed = await signer(plan, signerConfig());
    expect(signed.stderr).toContain(`to ${treasury} (your treasury)`);
    expect(signed.code).toBe(0);
    // The same transaction either way: segwit ids do not cover the signatures.
    expect((await node.rpc('decoderawtransaction', nodeTx.hex)).txid).toBe(signed.signed!.txid);
    expect(signed.signed!.txid).toBe(plan.txid);
    await node
      .rpc('testmempoolaccept', [nodeTx.hex])
      .then((r: { allowed: boolean }[]) => expect(r[0]!.allowed).toBe(true));

    // The merchant's webhook endpoint for collections (a full key manages endpoints).
    const endpoint = await callInProcess(
      'webhook-endpoints/create',
      { url: 'https://shop.example/hooks/collections', eventTypes: ['collection.completed', 'collection.stale'] },
      merchant.live,
    );
    expect(endpoint.status).toBe(200);

    // Submitted through the API: the plan's own unsigned PSBT is refused and writes nothing; the
    // signer reading the plan from the API and submitting its signature is taken and broadcast.
    const audits = async () =>
      (
        await db.query(`select 1 from audit_log where action = 'plan.submit' and merchant_id = $1`, [
          merchant.merchantId,
        ])
      ).length;
    const unsigned = await callInProcess('collections/submit', { id: plan.planId, psbt: plan.psbt }, planner);
    expectDocumented('collections/submit', { ...unsigned, headers: new Headers() });
    expect(unsigned.status).toBe(409);
    expect(unsigned.body.error.name).toBe('PLAN_REFUSED');
    expect(unsigned.body.error.message).toMatch(/the PSBT is not signed for every input/);
    expect(await audits()).toBe(0);
    expect(
      (await callInProcess('collections/submit', { id: plan.planId, transaction: nodeTx.hex }, merchant.live)).status,
    ).toBe(403);
    const api = await apiServer();
    try {
      const fromApi = await signer(plan, signerConfig(), { url: api.url, keys: planner });
      expect(fromApi.stderr).toContain(`to ${treasury} (your treasury)`);
      expect(fromApi.stderr).toContain(`submitted: the gateway's node took transaction ${plan.txid} (plan prepared)`);
      expect(fromApi.code).toBe(0);
    } finally {
      await api.close();
    }
    expect(await node.rpc('getrawmempool')).toContain(plan.txid);
    expect(await audits()).toBe(1);
    // litecoind's wallet's signed PSBT (finalized there) is the same transaction: taken again, harmlessly.
    const twice = await callInProcess('collections/submit', { id: plan.planId, psbt: byNode.psbt }, planner);
    expectDocumented('collections/submit', { ...twice, headers: new Headers() });
    expect(twice.body.response).toEqual({
      planId: plan.planId,
      kind: 'collection',
      status: 'prepared',
      txid: plan.txid,
    });

    await node.mine(1);
    await watchLive(db, adapter, new Date(late * 1000));
    expect((await collectionPlan(db, merchant.merchantId, 'live', plan.planId))!.status).toBe('confirmed');
    // Its event, written with the status change: the plan as collections/list answers it, to the endpoint too.
    const [summary] = (await callInProcess('collections/list', {}, planner)).body.response.plans;
    expect(summary).toMatchObject({ planId: plan.planId, status: 'confirmed', txid: plan.txid });
    const events = await collectionEvents(plan.planId);
    expect(events.recorded).toEqual([{ type: 'collection.completed', data: summary }]);
    expect(events.delivered).toEqual([expect.objectContaining({ type: 'collection.completed', data: summary })]);
    for (const input of plan.inputs) expect(await node.rpc('gettxout', input.txid, input.vout)).toBeNull();
    const received = await node.rpc(
      'getrawtransaction',
      signed.signed!.txid,
      true,
      (await node.rpc('getbestblockhash')) as string,
    );
    expect(received.vout[0].value).toBeCloseTo(Number(plan.sent), 8);
    expect(BigInt(Math.round(Number(plan.total) * 1e8))).toBe(expected);
    expect(await fundsOf(db, merchant.merchantId, 'live')).toEqual([]);
  }, 180_000);

  it('an output spent elsewhere makes the signer refuse and the plan stale; a payment after the plan is in the next one', async () => {
    // The chain's clock is past the first test's deadlines: these orders run for the longest lifetime.
    const first = await createOrder(db, merchant.live, { ...LTC, amount: '0.3', lifetime: 43200 });
    const second = await createOrder(db, merchant.live, { ...LTC, amount: '0.4', lifetime: 43200 });
    await walletRpc('test', 'sendtoaddress', first.address, '0.3');
    await walletRpc('test', 'sendtoaddress', second.address, '0.4');
    await node.mine(1);
    await watchLive(db, adapter);
    const stale = (await prepareCollection(db, {
      merchantId: merchant.merchantId,
      mode: 'live',
      network: 'litecoin',
      feeRate: 2n,
    })) as CollectionPlan;
    expect(stale.inputs.map((i) => i.address).sort()).toEqual([first.address, second.address].sort());

    // A payment after the plan: not in it.
    const later = await createOrder(db, merchant.live, { ...LTC, amount: '0.5', lifetime: 43200 });
    await walletRpc('test', 'sendtoaddress', later.address, '0.5');

    // The first deposit's output is spent elsewhere (the merchant's own wallet, by hand).
    const spentHere = stale.inputs.find((i) => i.address === first.address)!;
    const raw = await node.rpc('createrawtransaction', [{ txid: spentHere.txid, vout: spentHere.vout }], {
      [treasury]: '0.2999',
    });
    const signedRaw = await walletRpc('seed', 'signrawtransactionwithwallet', raw);
    const elsewhere = { txid: (await node.rpc('sendrawtransaction', signedRaw.hex)) as string };
    expect(elsewhere.txid).toMatch(/^[0-9a-f]{64}$/);

    const refused = await signer(stale, signerConfig());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`input ${spentHere.txid}:${spentHere.vout} is spent already`);

    await node.mine(1);
    // Before the watcher sees that block, the node's view differs from the record: checked on demand.
    const checkedBefore = await callInProcess('funds/check', {}, merchant.live);
    expectDocumented('funds/check', { ...checkedBefore, headers: new Headers() });
    expect(checkedBefore.body.error).toBeUndefined();
    expect(checkedBefore.body.response.checks).toEqual([
      {
        network: 'litecoin',
        currency: 'LTC',
        outputs: 2,
        checked: true,
        reason: null,
        differences: [
          { txid: spentHere.txid, vout: spentHere.vout, address: first.address, recorded: '0.3', atNode: null },
        ],
      },
    ]);
    await watchLive(db, adapter);
    const checkedAfter = await callInProcess('funds/check', {}, merchant.live);
    expect(checkedAfter.body.response.checks).toEqual([
      expect.objectContaining({ network: 'litecoin', checked: true, differences: [] }),
    ]);
    const after = (await collectionPlan(db, merchant.merchantId, 'live', stale.planId))!;
    expect(after.status).toBe('stale');
    expect(after.reason).toContain(elsewhere.txid);
    const events = await collectionEvents(stale.planId);
    expect(events.recorded).toEqual([
      { type: 'collection.stale', data: expect.objectContaining({ status: 'stale', reason: after.reason }) },
    ]);
    expect(events.delivered).toEqual([expect.objectContaining({ type: 'collection.stale' })]);
    // A stale plan takes no transaction.
    const tooLate = await callInProcess(
      'collections/submit',
      { id: stale.planId, transaction: signedRaw.hex },
      planner,
    );
    expect(tooLate.body.error.name).toBe('PLAN_REFUSED');
    expect(tooLate.body.error.message).toMatch(/is stale/);

    const next = (await prepareCollection(db, {
      merchantId: merchant.merchantId,
      mode: 'live',
      network: 'litecoin',
      feeRate: 2n,
    })) as CollectionPlan;
    expect(next.inputs.map((i) => i.address).sort()).toEqual([second.address, later.address].sort());
    const signed = await signer(next, signerConfig());
    expect(signed.code).toBe(0);
  }, 120_000);

  it('the seed and its private keys are nowhere in the database', async () => {
    const tables = await db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
    );
    let everything = '';
    for (const { table_name } of tables) {
      const rows = await db.query<{ row: string }>(`select row_to_json(t)::text as row from "${table_name}" t`);
      everything += rows.map((r) => r.row).join('\n');
    }
    expect(everything.length).toBeGreaterThan(10_000);
    const secrets = [WORDS, 'abandon abandon', account.privateExtendedKey, root.privateExtendedKey];
    const chain = account.deriveChild(0);
    for (let i = 0; i < 60; i++) {
      const key = chain.deriveChild(i).privateKey!;
      secrets.push(hex.encode(key), WIF({ bech32: 'rltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef }).encode(key));
    }
    for (const secret of secrets) expect(everything.includes(secret), 'a secret in the database').toBe(false);
    // The descriptor the gateway holds is public.
    expect(parseKeyDescriptor(DESCRIPTOR).masterFingerprint).toBe(0x73c5da0a);
  });
});
