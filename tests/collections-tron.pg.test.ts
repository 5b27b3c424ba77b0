/**
 * Tron collections on the fake java-tron node (tests/support/fake-tron-node.ts, which verifies
 * each transaction's signature over its id, refuses delegation to an inactive account and charges
 * energy and bandwidth by the documented rules): USDT paid to two deposit addresses of the public
 * test seed, one of them never activated; a plan with activation, delegation, transfer and reclaim
 * prepared through the API at the node's prices and stored, signed by `npm run signer`, broadcast,
 * accepted, and its steps and the stored plan prepared -> broadcast -> confirmed as the watcher
 * scans, the Funds report falling by what was collected. Then a merchant without stake (TRX
 * burned, shown before signing; the fund the transfer burned off the TRX line, decision 117), the plans a gateway could rewrite, refused by the signer, and TRX
 * itself: each address's balance less what its sweep burns, swept by its own key (docs/decisions/113).
 * Last, refunds by plans (docs/decisions/115): a TRX and a USDT refund prepared through the API from
 * the treasury, read by the signer's own code through the API, checked on the fake node as its own,
 * signed with the treasury's key, submitted, and the refunds sent then confirmed as the watcher scans.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { tronCollectionNode } from '@/lib/chains';
import type { LiveAdapter } from '@/lib/chains/live';
import {
  RESOURCE,
  buildTransaction,
  encodeSignedTransaction,
  signTransactionId,
  transferCallData,
  tronAddress,
  tronAddressBytes,
} from '@/lib/chains/tron/transactions';
import { liveChainConfig } from '@/lib/chains';
import type { Database } from '@/lib/db/client';
import { bandwidthOf } from '@/lib/chains/tron/costs';
import { formatUnits, parseUnits } from '@/lib/money';
import { broadcastTronPlan, prepareTronCollection, setFeePayer, setTreasury, settleTronPlan } from '@/lib/payouts';
import { tronCollectionPlanSchema, tronRefundPlanSchema, type TronCollectionPlan } from '@/lib/protocol';
import { createKey } from '@/lib/merchants';
import { confirmClaim, makeRefund } from '@/lib/refunds';
import { readPlan, type GatewayClient } from '../scripts/signer/api';
import { submitSigned } from '../scripts/signer/from-api';
import type { RefundLedger } from '../scripts/signer/refunds';
import { nodeTronPaymentReader, signTronRefundPlan, tronRefundPlanOf } from '../scripts/signer/sign-tron-refund';
import { SignerRefusal } from '@/lib/chains/utxo/transactions';
import { signTronPlan, tronSignerConfigSchema } from '../scripts/signer/tron';
import { callInProcess, inProcessFetch, useDatabaseForApi } from './support/api-in-process';
import { createOrder, orderRow } from './support/chain';
import { expectDocumented } from './support/contract';
import { randomTronAccount, type FakeTronNode } from './support/fake-tron-node';
import { watchLive, withLiveNetwork } from './support/live';
import { fakeTronNetwork } from './support/live-networks';
import type { TestMerchant } from './support/merchants';
import { fileTempDir } from './support/temp-dir';

const run = promisify(execFile);
const WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(WORDS));
const RESOURCE_PATH = "m/44'/195'/1'/0/0";
const resourceKey = root.derive(RESOURCE_PATH);
const resourceAccount = tronAddress(resourceKey.publicKey!);
const CONFIRMATIONS = 3;
const USDT = randomTronAccount();
const treasury = randomTronAccount();
const payer = randomTronAccount();
const TRX = 1_000_000n;

let node: FakeTronNode;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;
withLiveNetwork(
  fakeTronNetwork({
    apiKey: 'k',
    xpub: root.derive("m/44'/195'/0'/0").publicExtendedKey,
    confirmations: CONFIRMATIONS,
    tokens: `USDT:${USDT}`,
  }),
  (live) => ({ node, db, merchant, adapter } = live),
  { TRON_CHAIN: 'regtest' },
);

const dir = fileTempDir('gw-tron-signer-');
const seedFile = path.join(dir, 'seed.txt');
fs.writeFileSync(seedFile, `${WORDS}\n`, { mode: 0o600 });
const signerConfig = () => ({ network: 'tron', chain: 'regtest', treasury, tokens: [USDT], maxBurn: '50' });

/** `npm run signer` as the merchant runs it: its exit code, what it printed and the signed transactions. */
async function signer(plan: TronCollectionPlan) {
  const planFile = path.join(dir, `plan-${plan.planId}.json`);
  const configFile = path.join(dir, 'signer.json');
  const out = path.join(dir, `signed-${plan.planId}.json`);
  fs.writeFileSync(planFile, JSON.stringify(plan));
  fs.writeFileSync(configFile, JSON.stringify(signerConfig()));
  const args = ['scripts/cli.mjs', 'signer', 'sign', '--plan', planFile, '--config', configFile];
  const result = await run(process.execPath, [...args, '--seed-file', seedFile, '--out', out, '--yes'], {
    cwd: path.resolve(__dirname, '..'),
  });
  const written = fs.readFileSync(out, 'utf8');
  for (const text of [result.stdout, result.stderr, written]) expect(text).not.toContain('abandon');
  return {
    stderr: result.stderr,
    signed: JSON.parse(written) as { transactions: { step: string; txID: string; transaction: string }[] },
  };
}

/** Pays `amount` USDT base units to a fresh live order's deposit address; answers the address. */
async function paidDeposit(amount: bigint): Promise<string> {
  const order = await createOrder(db, merchant.live, {
    currency: 'USDT',
    network: 'tron',
    amount: formatUnits(amount, 6),
  });
  node.sendToken(USDT, payer, order.address, amount);
  return order.address;
}

const stepsOf = (plan: TronCollectionPlan) => plan.addresses.map((a) => a.steps.map((s) => s.step));
const statusesOf = (plan: TronCollectionPlan) => [
  ...new Set(plan.addresses.flatMap((a) => a.steps.map((s) => s.status))),
];

describe('tron collections on the fake java-tron node', () => {
  it('activation, delegated energy, transfer and reclaim: signed, accepted, confirmed as the watcher scans', async () => {
    await setTreasury(db, { merchantId: merchant.merchantId, network: 'tron', mode: 'live', address: treasury });
    // Prices are the node's: moved from mainnet's so that a constant in the code would show.
    node.chainParameters.set('getEnergyFee', 210n);
    node.chainParameters.set('getCreateNewAccountFeeInSystemContract', 1_100_000n);
    node.tokenEnergy.set(USDT, { held: 14_650n, fresh: 29_650n, factor: 3_400n });
    node.fund(resourceAccount, 100_000n * TRX);
    node.stakeForEnergy(resourceAccount, 60_000n * TRX);

    const fresh = await paidDeposit(25_500_000n);
    const active = await paidDeposit(7_000_000n);
    node.sendTrx(payer, active, 1n); // an account already: no activation
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);

    // Prepared through the signed API by a signing-plans key, stored, and read back as the signer reads it.
    useDatabaseForApi(db);
    const planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'Signer',
      scopes: ['read-only', 'signing-plans'],
    });
    const asked = { network: 'tron', currency: 'USDT', feePayer: { address: resourceAccount, path: RESOURCE_PATH } };
    const { feePayer: _, ...withoutPayer } = asked;
    expect((await callInProcess('collections/prepare', withoutPayer, planner)).body.error).toMatchObject({
      name: 'PLAN_REFUSED',
      message: expect.stringContaining('a Tron plan needs feePayer'),
    });
    // Before anything is planned, the Funds line's cost per address, read from the node without a resource
    // account: the first address is not active and the treasury holds no USDT, so at most the creation
    // fees and 39,731 energy burned at 210 sun (decision 107).
    const tronLine = async () =>
      (await callInProcess('funds/list', {}, planner)).body.response.funds.find(
        (f: { network: string; currency: string }) => f.network === 'tron' && f.currency === 'USDT',
      );
    expect((await tronLine()).costPerAddress).toEqual({
      amount: formatUnits(1_100_000n + 100_000n + 39_731n * 210n, 6),
      currency: 'TRX',
    });
    // With the fee payer kept and its stake able to lend that energy, burned energy leaves the bound:
    // the creation fees and the delegation's and reclaim's bytes (decision 113).
    await setFeePayer(db, { merchantId: merchant.merchantId, network: 'tron', mode: 'live', ...asked.feePayer });
    const staked = parseUnits((await tronLine()).costPerAddress.amount, 6) as { value: bigint };
    expect(staked.value).toBeGreaterThan(1_200_000n);
    expect(staked.value).toBeLessThan(2_000_000n);
    const prepared = await callInProcess('collections/prepare', asked, planner);
    expectDocumented('collections/prepare', { ...prepared, headers: new Headers() });
    const plan = tronCollectionPlanSchema.parse(prepared.body.response);
    expect(plan).toMatchObject({ format: 'tron', chain: 'regtest', energySource: 'stake', total: '32500000' });
    const planStatus = async () => {
      const got = await callInProcess('collections/get', { id: plan.planId }, planner);
      expectDocumented('collections/get', { ...got, headers: new Headers() });
      return got.body.response.status as string;
    };
    expect(await planStatus()).toBe('prepared');
    expect((await callInProcess('collections/list', {}, planner)).body.response.plans).toEqual([
      expect.objectContaining({ planId: plan.planId, network: 'tron', currency: 'USDT', total: '32.5', inputs: 2 }),
    ]);
    // Nothing is planned twice: the same deposits are in the open plan.
    expect((await callInProcess('collections/prepare', asked, planner)).body.error.message).toBe(
      'no tron address holds USDT to collect',
    );
    const usdtFunds = async () => (await tronLine())?.total;
    // Every address is in the open plan: none is left to cost.
    expect(await tronLine()).toMatchObject({ total: '32.5', costPerAddress: null });
    expect(plan.prices).toMatchObject({
      energyFee: '210',
      createNewAccountFeeInSystemContract: '1100000',
      energyFactor: '3400',
    });
    expect(plan.addresses.map((a) => [a.address, a.active])).toEqual([
      [fresh, false],
      [active, true],
    ]);
    expect(stepsOf(plan)).toEqual([
      ['activate', 'delegate', 'transfer', 'reclaim'],
      ['delegate', 'transfer', 'reclaim'],
    ]);
    // The treasury holds no USDT yet: each transfer is to a new holder (29,650 energy x 1.34).
    expect(plan.addresses.map((a) => a.energy)).toEqual(['39731', '39731']);
    // Activation burns the system contract's fee and the account fee; the rest fits free bandwidth.
    // (The resource account's balance after broadcast checks each step's figure.)
    expect(BigInt(plan.burn)).toBeGreaterThanOrEqual(1_200_000n);

    const { stderr, signed } = await signer(plan);
    expect(stderr).toContain('lend the energy of');
    expect(stderr).toContain(`to ${treasury}`);
    expect(signed.transactions.map((t) => t.step)).toEqual(plan.addresses.flatMap((a) => a.steps.map((s) => s.step)));

    const tron = tronCollectionNode(liveChainConfig('tron')!);
    const resourceBefore = node.account(resourceAccount)!.balance;
    expect(await broadcastTronPlan(signed.transactions, tron)).toEqual({ broadcast: 7, refused: null });
    expect([...node.broadcasts.values()].map((b) => b.result)).toEqual(Array(7).fill('SUCCESS'));
    expect(node.tokenBalance(USDT, treasury)).toBe(32_500_000n);
    expect(node.tokenBalance(USDT, fresh)).toBe(0n);
    // The stake is back, and what the resource account burned is what the plan said.
    expect(node.account(resourceAccount)!.delegatedOut.get(Buffer.from(tronAddressBytes(fresh)).toString('hex'))).toBe(
      0n,
    );
    expect(resourceBefore - node.account(resourceAccount)!.balance - 1n).toBe(BigInt(plan.burn));

    expect(statusesOf(await settleTronPlan(db, plan, tron))).toEqual(['prepared']);
    node.mine(1);
    // In a block, but not one the watcher has scanned: the plan moves with the watcher.
    expect(statusesOf(await settleTronPlan(db, plan, tron))).toEqual(['prepared']);
    expect(await planStatus()).toBe('prepared');
    await watchLive(db, adapter);
    const seen = await settleTronPlan(db, plan, tron);
    expect([seen.status, statusesOf(seen)]).toEqual(['broadcast', ['broadcast']]);
    // The watcher saw both transfers to the treasury: the stored plan moves with it.
    expect(await planStatus()).toBe('broadcast');
    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    const done = await settleTronPlan(db, plan, tron);
    expect([done.status, statusesOf(done), done.reason]).toEqual(['confirmed', ['confirmed'], null]);
    expect(await planStatus()).toBe('confirmed');
    // Collected: the Funds report no longer counts those deposits.
    expect(await usdtFunds()).toBeUndefined();
  });

  it('without stake the transfer burns TRX at the energy price, shown before signing; the fund it burned leaves the TRX line', async () => {
    node.account(resourceAccount)!.stakedEnergy = 0n;
    const deposit = await paidDeposit(4_000_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    // Prepared through the API and stored: the watcher follows it (decision 117).
    useDatabaseForApi(db);
    const planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'Burn',
      scopes: ['read-only', 'signing-plans'],
    });
    const plan = tronCollectionPlanSchema.parse(
      (
        await callInProcess(
          'collections/prepare',
          { network: 'tron', currency: 'USDT', feePayer: { address: resourceAccount, path: RESOURCE_PATH } },
          planner,
        )
      ).body.response,
    );
    expect(plan.energySource).toBe('burn');
    expect(stepsOf(plan)).toEqual([['fund', 'transfer']]);
    // The treasury holds USDT now: 14,650 energy x 1.34 = 19,631, at 210 sun.
    const [item] = plan.addresses;
    expect([item!.address, item!.energy, item!.steps[1]!.burn]).toEqual([deposit, '19631', String(19_631n * 210n)]);
    const { stderr, signed } = await signer(plan);
    expect(stderr).toContain('energy by burning TRX');
    expect(stderr).toMatch(/TRX burned in all: about \d/);
    const tron = tronCollectionNode(liveChainConfig('tron')!);
    expect(await broadcastTronPlan(signed.transactions, tron)).toEqual({ broadcast: 2, refused: null });
    expect(node.tokenBalance(USDT, treasury)).toBe(36_500_000n);
    // The deposit burned exactly what it was sent for the energy: nothing left, nothing short.
    expect(node.account(deposit)!.balance).toBe(0n);

    // The watcher records the fund coming in and, as it sees the transfer, what the transfer burned
    // going out: the TRX line holds what the node says those addresses hold (the earlier plan's
    // 1-sun activation and payment), not the fund.
    const trxRows = () =>
      db.query<{ address: string; amount: string }>(
        `select a.address, t.amount::text as amount from chain_transfers t join addresses a on a.id = t.address_id
          where t.merchant_id = $1 and t.mode = 'live' and t.currency = 'TRX' and t.spent_by_tx is null`,
        [merchant.merchantId],
      );
    const trxLine = async () =>
      (await callInProcess('funds/list', {}, planner)).body.response.funds.find(
        (f: { network: string; currency: string }) => f.network === 'tron' && f.currency === 'TRX',
      )?.total;
    node.mine(1);
    await watchLive(db, adapter);
    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect((await callInProcess('collections/get', { id: plan.planId }, planner)).body.response.status).toBe(
      'confirmed',
    );
    const held = await trxRows();
    expect(held.map((r) => r.address)).not.toContain(deposit);
    const atNode = [...new Set(held.map((r) => r.address))].reduce((sum, a) => sum + node.account(a)!.balance, 0n);
    expect(atNode).toBe(2n);
    expect(await trxLine()).toBe(formatUnits(atNode, 6));
    // Seen again (the watcher's step repeated), nothing changes: the fund is spent once.
    await watchLive(db, adapter);
    expect(await trxLine()).toBe(formatUnits(atNode, 6));

    // A fund burned in part (decision 122): the energy price falls between the plan and its
    // broadcast, the transfer burns less than its fund, and the line keeps what is left of it.
    const partly = await paidDeposit(3_000_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    const cheaper = tronCollectionPlanSchema.parse(
      (
        await callInProcess(
          'collections/prepare',
          { network: 'tron', currency: 'USDT', feePayer: { address: resourceAccount, path: RESOURCE_PATH } },
          planner,
        )
      ).body.response,
    );
    expect(cheaper.addresses.map((a) => [a.address, a.steps[1]!.burn])).toEqual([[partly, String(19_631n * 210n)]]);
    node.chainParameters.set('getEnergyFee', 150n);
    expect(await broadcastTronPlan((await signer(cheaper)).signed.transactions, tron)).toEqual({
      broadcast: 2,
      refused: null,
    });
    node.chainParameters.set('getEnergyFee', 210n);
    expect(node.account(partly)!.balance).toBe(19_631n * 60n);
    node.mine(1);
    await watchLive(db, adapter);
    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect((await callInProcess('collections/get', { id: cheaper.planId }, planner)).body.response.status).toBe(
      'confirmed',
    );
    const partlyHeld = await trxRows();
    expect(partlyHeld.map((r) => r.address)).toContain(partly);
    const partlyAtNode = [...new Set(partlyHeld.map((r) => r.address))].reduce(
      (sum, a) => sum + node.account(a)!.balance,
      0n,
    );
    expect(partlyAtNode).toBe(atNode + 19_631n * 60n);
    expect(await trxLine()).toBe(formatUnits(partlyAtNode, 6));
    // Seen again, the part is spent once.
    await watchLive(db, adapter);
    expect(await trxLine()).toBe(formatUnits(partlyAtNode, 6));
    expect(await db.query('select amount::text as amount from partial_spends')).toEqual([
      { amount: String(19_631n * 150n) },
    ]);
    // Checked against the node (decision 122): each address's TRX as recorded is its balance there;
    // one the node says holds another is the difference.
    const trxCheck = async () => {
      const got = await callInProcess('funds/check', {}, planner);
      expectDocumented('funds/check', { ...got, headers: new Headers() });
      return got.body.response.checks.find(
        (c: { network: string; currency: string }) => c.network === 'tron' && c.currency === 'TRX',
      );
    };
    expect(await trxCheck()).toMatchObject({ checked: true, reason: null, differences: [] });
    node.account(partly)!.balance -= 1n;
    expect((await trxCheck()).differences).toEqual([
      {
        txid: null,
        vout: null,
        address: partly,
        recorded: formatUnits(19_631n * 60n, 6),
        atNode: formatUnits(19_631n * 60n - 1n, 6),
      },
    ]);
    node.account(partly)!.balance += 1n;
    node.account(resourceAccount)!.stakedEnergy = 60_000n * TRX;
  });

  it('the fake node refuses a signature by another key and a delegation to an inactive account', async () => {
    const tron = tronCollectionNode(liveChainConfig('tron')!);
    const head = node.height();
    const ref = { height: head, id: node.blockId(head), timestamp: Date.now() };
    const times = { expiration: Date.now() + 3_600_000, timestamp: Date.now() };
    const inactive = randomTronAccount();
    const delegate = buildTransaction(
      ref,
      {
        type: 'DelegateResourceContract',
        owner: tronAddressBytes(resourceAccount),
        resource: RESOURCE.ENERGY,
        balance: 10n * TRX,
        receiver: tronAddressBytes(inactive),
        lock: false,
        lockPeriod: 0n,
      },
      times,
    );
    const signedBy = (key: Uint8Array) =>
      Buffer.from(
        encodeSignedTransaction(Buffer.from(delegate.rawDataHex, 'hex'), [signTransactionId(delegate.txID, key)]),
      ).toString('hex');
    const other = root.derive("m/44'/195'/0'/0/0").privateKey!;
    expect((await broadcastTronPlan([{ txID: delegate.txID, transaction: signedBy(other) }], tron)).refused).toMatch(
      /SIGERROR/,
    );
    expect(
      (await broadcastTronPlan([{ txID: delegate.txID, transaction: signedBy(resourceKey.privateKey!) }], tron))
        .refused,
    ).toMatch(/CONTRACT_VALIDATE_ERROR: Account\[41[0-9a-f]{40}\] does not exist/);
  });

  it('the signer refuses a plan rewritten to another contract type, another token method, another recipient', async () => {
    const deposit = await paidDeposit(1_000_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    const plan = await prepareTronCollection(db, {
      merchantId: merchant.merchantId,
      mode: 'live',
      currency: 'USDT',
      resourceAccount: { address: resourceAccount, path: RESOURCE_PATH },
    });
    const config = tronSignerConfigSchema.parse(signerConfig());
    const item = plan.addresses.find((a) => a.address === deposit)!;
    const head = node.height();
    const ref = { height: head, id: node.blockId(head), timestamp: Date.now() };
    const times = { expiration: Date.now() + 3_600_000, timestamp: Date.now() };
    const depositBytes = tronAddressBytes(deposit);
    const call = (data: Uint8Array) =>
      buildTransaction(
        ref,
        {
          type: 'TriggerSmartContract',
          owner: depositBytes,
          contract: tronAddressBytes(USDT),
          callValue: 0n,
          data,
          callTokenValue: 0n,
          tokenId: 0n,
        },
        times,
        1n,
      );
    const rewrites = {
      'another contract type': buildTransaction(
        ref,
        { type: 'TransferContract', owner: depositBytes, to: tronAddressBytes(payer), amount: 5n },
        times,
      ),
      'another token method': call(
        Uint8Array.from([0x09, 0x5e, 0xa7, 0xb3, ...transferCallData(tronAddressBytes(payer), 2n ** 255n).subarray(4)]),
      ),
      'another recipient': call(transferCallData(tronAddressBytes(payer), 1_000_000n)),
    };
    const reasons: Record<string, string> = {};
    for (const [what, tx] of Object.entries(rewrites)) {
      const rewritten: TronCollectionPlan = {
        ...plan,
        addresses: [{ ...item, steps: item.steps.map((s) => (s.step === 'transfer' ? { ...s, ...tx } : s)) }],
      };
      const refusal = await signTronPlan(rewritten, config, root, async () => true).catch((e: unknown) => e);
      expect(refusal, what).toBeInstanceOf(SignerRefusal);
      reasons[what] = (refusal as SignerRefusal).message;
    }
    expect(reasons['another contract type']).toMatch(
      /is a TransferContract; a transfer step is a TriggerSmartContract/,
    );
    expect(reasons['another token method']).toMatch(/calls 095ea7b3, not transfer/);
    expect(reasons['another recipient']).toMatch(new RegExp(`the token recipient is ${payer}, not ${treasury}`));
    // And the plan as prepared is signed.
    await expect(signTronPlan(plan, config, root, async () => true)).resolves.toMatchObject({ planId: plan.planId });
  });

  it("TRX itself: each address's balance less what its sweep burns, swept by its own key, confirmed as the watcher scans", async () => {
    const paidTrx = async (sun: bigint) => {
      const order = await createOrder(db, merchant.live, {
        currency: 'TRX',
        network: 'tron',
        amount: formatUnits(sun, 6),
      });
      node.sendTrx(payer, order.address, sun);
      return order.address;
    };
    const first = await paidTrx(40n * TRX);
    const spent = await paidTrx(3n * TRX);
    // Its free bandwidth used up today: its sweep burns its bytes, which it keeps.
    node.account(spent)!.freeNetUsed = 600n;
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    useDatabaseForApi(db);
    const planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'TRX',
      scopes: ['read-only', 'signing-plans'],
    });
    const trxLine = async () =>
      (await callInProcess('funds/list', {}, planner)).body.response.funds.find(
        (f: { network: string; currency: string }) => f.network === 'tron' && f.currency === 'TRX',
      );
    const before = await trxLine();
    // At most a sweep's bytes at 1,000 sun (about 270 bytes), the address's free bandwidth not counted.
    expect(before.costPerAddress).toMatchObject({ currency: 'TRX', amount: expect.stringMatching(/^0\.2[5-9]\d$/) });
    const prepared = await callInProcess(
      'collections/prepare',
      { network: 'tron', currency: 'TRX', feePayer: { address: resourceAccount, path: RESOURCE_PATH } },
      planner,
    );
    expectDocumented('collections/prepare', { ...prepared, headers: new Headers() });
    const plan = tronCollectionPlanSchema.parse(prepared.body.response);
    expect(plan).toMatchObject({ currency: 'TRX', token: null, energySource: 'burn' });
    // The earlier addresses hold 1 sun each (an activation, a payer's sun) and their token transfer took
    // their free bandwidth: a sweep would burn more than they hold, so they are left. The treasury is no
    // account yet (tokens do not make one): the first sweep creates it, burning the two creation fees.
    const [a, b] = plan.addresses;
    const bytes = bandwidthOf(b!.steps[0]!.rawDataHex);
    expect(plan.addresses.map((x) => [x.address, x.steps.map((s) => s.step), x.steps[0]!.burn, x.amount])).toEqual([
      [first, ['sweep'], '1200000', String(40n * TRX - 1_200_000n)],
      [spent, ['sweep'], String(bytes * 1_000n), String(3n * TRX - bytes * 1_000n)],
    ]);
    expect(a!.steps[0]!.burn).toBe('1200000');

    const signed = await signTronPlan(plan, tronSignerConfigSchema.parse(signerConfig()), root, async () => true);
    const tron = tronCollectionNode(liveChainConfig('tron')!);
    expect(await broadcastTronPlan(signed.transactions, tron)).toEqual({ broadcast: 2, refused: null });
    expect(node.account(treasury)!.balance).toBe(BigInt(plan.total));
    // Each address burned exactly what the plan kept back for it: nothing is left on either.
    expect([node.account(first)!.balance, node.account(spent)!.balance]).toEqual([0n, 0n]);

    const status = async () =>
      (await callInProcess('collections/get', { id: plan.planId }, planner)).body.response.status;
    node.mine(1);
    await watchLive(db, adapter);
    expect(await status()).toBe('broadcast');
    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect(await status()).toBe('confirmed');
    // The swept deposits leave the Funds line; the 1-sun ones stay.
    const units = (line: { total: string } | undefined) =>
      line ? (parseUnits(line.total, 6) as { value: bigint }).value : 0n;
    expect(units(before) - units(await trxLine())).toBe(43n * TRX);
  });

  it('refunds by plans: TRX and USDT from the treasury, checked on the node, signed, submitted, sent and confirmed', async () => {
    const TREASURY_PATH = "m/44'/195'/2'/0/0";
    const refundTreasury = tronAddress(root.derive(TREASURY_PATH).publicKey!);
    await setTreasury(db, { merchantId: merchant.merchantId, network: 'tron', mode: 'live', address: refundTreasury });
    node.fund(refundTreasury, 100n * TRX);
    node.sendToken(USDT, payer, refundTreasury, 50_000_000n);
    const trxOrder = await createOrder(db, merchant.live, { currency: 'TRX', network: 'tron', amount: '10' });
    node.sendTrx(payer, trxOrder.address, 10n * TRX);
    const usdtOrder = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '30' });
    node.sendToken(USDT, payer, usdtOrder.address, 30_000_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect((await orderRow(db, trxOrder.id)).status).toBe('processed');

    useDatabaseForApi(db);
    const planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'Refunds',
      scopes: ['read-only', 'signing-plans'],
    });
    const scope = { merchantId: merchant.merchantId, mode: 'live' as const };
    const refundee = randomTronAccount();
    const attacker = randomTronAccount();
    async function claimedRefund(orderId: string, amount: bigint, address = refundee) {
      const made = await makeRefund(db, scope, {
        target: { kind: 'order', id: orderId },
        amount,
        createdBy: 'user:test',
        now: new Date(),
      });
      const token = made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1);
      await confirmClaim(db, token, { address, tag: '' }, new Date());
      return made.refund.id;
    }
    const refundOf = async (id: string) =>
      (
        await db.query<{ state: string; txid: string | null }>('select state, txid from refunds where id = $1', [id])
      )[0];
    const config = tronSignerConfigSchema.parse({
      ...signerConfig(),
      treasury: refundTreasury,
      treasuryPath: TREASURY_PATH,
      node: { url: node.url, apiKey: 'k' },
      refundDailyCaps: { TRX: '100', USDT: '100' },
    });
    let ledger: RefundLedger = { refunds: [] };
    /** The gateway as the signer reaches it, in this process; `rewrite` plays attacker on the plan it answers. */
    const client = (rewrite?: (plan: { refund: { destination: string } }) => void): GatewayClient => ({
      baseUrl: 'http://gateway.test',
      key: planner,
      fetch: async (input, init) => {
        const answer = await inProcessFetch(input, init);
        if (!rewrite || !String(input).endsWith('/refund-plans/get')) return answer;
        const body = await answer.json();
        rewrite(body.response);
        return new Response(JSON.stringify(body), { status: answer.status });
      },
    });
    /** `npm run signer -- sign --from-api URL --refund-id ID` in process: read, check, sign, keep the ledger, submit. */
    async function signFromApi(refundId: string, gateway: GatewayClient) {
      const asked = { kind: 'refund' as const, refundId };
      const planText = await readPlan(gateway, asked);
      const sign = () =>
        signTronRefundPlan(tronRefundPlanOf(JSON.parse(planText))!, config, root, {
          ledger,
          readPayment: nodeTronPaymentReader(config.node!),
          confirm: async () => true,
        });
      return submitSigned(gateway, asked, planText, sign, { ledger, keepLedger: (next) => (ledger = next) });
    }

    // TRX: 4 of the 10 paid, to an address that is no account yet (the transfer creates it).
    const trxRefund = await claimedRefund(trxOrder.id, 4n * TRX);
    const prepared = await callInProcess('refund-plans/prepare', { refundId: trxRefund }, planner);
    expectDocumented('refund-plans/prepare', { ...prepared, headers: new Headers() });
    const plan = tronRefundPlanSchema.parse(prepared.body.response);
    expect(plan).toMatchObject({ format: 'tron', currency: 'TRX', token: null, treasury: refundTreasury });
    // The treasury pays the two account creation fees at the node's prices: the refundee is no account yet.
    const creation =
      node.chainParameters.get('getCreateNewAccountFeeInSystemContract')! +
      node.chainParameters.get('getCreateAccountFee')!;
    expect(plan.transaction).toMatchObject({ feeLimit: '0', burn: String(creation) });
    expect(plan.refund.payment.transfers).toEqual([
      expect.objectContaining({ address: trxOrder.address, path: expect.stringMatching(/^m\/44'\/195'\/0'\/0\/\d+$/) }),
    ]);

    // The gateway playing attacker: the claim it answers names another address than its transaction pays.
    await expect(
      signFromApi(
        trxRefund,
        client((answered) => {
          answered.refund.destination = attacker;
        }),
      ),
    ).rejects.toThrow(`not a transfer of ${4n * TRX} sun to ${attacker}`);
    expect(ledger.refunds).toEqual([]);

    const { signed, submitted } = await signFromApi(trxRefund, client());
    expect(submitted).toMatchObject({ planId: plan.planId, kind: 'refund', status: 'prepared', txid: plan.txid });
    expect(ledger.refunds).toEqual([
      expect.objectContaining({ refundId: trxRefund, txid: signed.txid, currency: 'TRX' }),
    ]);
    const got = await callInProcess('refund-plans/get', { refundId: trxRefund }, planner);
    expectDocumented('refund-plans/get', { ...got, headers: new Headers() });
    expect(got.body.response).toMatchObject({ status: 'prepared', acceptedAt: expect.any(String) });
    expect(node.account(refundee)!.balance).toBe(4n * TRX);

    // USDT: transfer(refundee, 12) on the token, its fee limit the energy the node estimates at its price.
    const usdtRefund = await claimedRefund(usdtOrder.id, 12_000_000n);
    const usdtPlan = tronRefundPlanSchema.parse(
      (await callInProcess('refund-plans/prepare', { refundId: usdtRefund }, planner)).body.response,
    );
    expect(usdtPlan).toMatchObject({ currency: 'USDT', token: { contract: USDT, decimals: 6 } });
    expect(BigInt(usdtPlan.transaction.feeLimit)).toBeGreaterThan(0n);
    const usdtSigned = await signFromApi(usdtRefund, client());
    expect(node.tokenBalance(USDT, refundee)).toBe(12_000_000n);

    node.mine(1);
    await watchLive(db, adapter);
    expect(await refundOf(trxRefund)).toEqual({ state: 'sent', txid: signed.txid });
    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect(await refundOf(trxRefund)).toEqual({ state: 'confirmed', txid: signed.txid });
    expect(await refundOf(usdtRefund)).toEqual({ state: 'confirmed', txid: usdtSigned.signed.txid });
    const events = await db.query<{ type: string }>('select type from events where object_id = $1 order by position', [
      usdtRefund,
    ]);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['refund.sent', 'refund.confirmed']));
    expect((await orderRow(db, usdtOrder.id)).status).toBe('processed');

    // The fee taken from a TRX refund (decision 120): the payer gets 3 TRX less what its transaction
    // burns (two creation fees: the address is no account yet), and the signer checks just that.
    const bearer = randomTronAccount();
    const bearing = await claimedRefund(trxOrder.id, 3n * TRX, bearer);
    const bearingPlan = tronRefundPlanSchema.parse(
      (await callInProcess('refund-plans/prepare', { refundId: bearing, feeFromRefund: true }, planner)).body.response,
    );
    expect(bearingPlan.transaction.burn).toBe(String(creation));
    expect(bearingPlan.refund).toMatchObject({
      amount: '3',
      pays: formatUnits(3n * TRX - creation, 6),
      feeFromRefund: true,
    });
    await signFromApi(bearing, client());
    expect(node.account(bearer)!.balance).toBe(3n * TRX - creation);
    // A refund its fee would eat whole is refused, nothing written.
    const eaten = await claimedRefund(trxOrder.id, creation, randomTronAccount());
    const refused = await callInProcess('refund-plans/prepare', { refundId: eaten, feeFromRefund: true }, planner);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      name: 'PLAN_REFUSED',
      message: expect.stringContaining(`does not cover its network fee of ${formatUnits(creation, 6)} TRX`),
    });
    expect(await db.query('select id from collection_plans where refund_id = $1', [eaten])).toEqual([]);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect((await refundOf(bearing))!.state).toBe('confirmed');
    expect((await orderRow(db, trxOrder.id)).status).toBe('processed');
  });
});
