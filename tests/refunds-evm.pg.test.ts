/**
 * EVM refunds sent by plans on anvil (docs/decisions/112), nothing mocked but the signer's prompt:
 * an order paid in ETH and one in USDT to the merchant's own seed, a partial refund of each claimed
 * by its payer, a plan prepared through the API from the merchant's treasury, read back by the
 * signer's own code through the API (`--from-api --refund-id`), checked against the payment on the
 * signer's node and its ledger, signed with the treasury's key, submitted through
 * `collections/submit`, mined, and the refund confirmed by the watcher with its events; the
 * orders' status never moves. Before that, a gateway playing attacker rewrites the plan it answers
 * to another recipient: refused, nothing kept in the ledger, nothing submitted, nothing sent.
 */
import { getAddress, parseAbi, parseEther, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import type { LiveAdapter } from '@/lib/chains/live';
import { EVM_DEPOSIT_CHAIN_PATH, addressOfKey } from '@/lib/chains/evm/transactions';
import type { Database } from '@/lib/db/client';
import { createKey } from '@/lib/merchants';
import { formatUnits } from '@/lib/money';
import { setTreasury } from '@/lib/payouts';
import { evmRefundPlanSchema } from '@/lib/protocol';
import { confirmClaim, makeRefund } from '@/lib/refunds';
import type { GatewayClient } from '../scripts/signer/api';
import { readPlan } from '../scripts/signer/api';
import { planSummary } from '../scripts/lib/plan-summary';
import { submitSigned } from '../scripts/signer/from-api';
import type { RefundLedger } from '../scripts/signer/refunds';
import { evmSignerConfigSchema } from '../scripts/signer/sign-evm';
import { evmRefundPlanOf, nodePaymentReader, signEvmRefundPlan } from '../scripts/signer/sign-evm-refund';
import { rootOfPhrase } from '../scripts/signer/sign-plan';
import { callInProcess, inProcessFetch, useDatabaseForApi } from './support/api-in-process';
import { createOrder, orderRow } from './support/chain';
import { expectDocumented } from './support/contract';
import { CHAIN_ID, deployToken, evmNodeMissing, sendToken, type EvmNode } from './support/evm';
import { watchLive, withLiveNetwork } from './support/live';
import { anvilNetwork } from './support/live-networks';
import type { TestMerchant } from './support/merchants';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';
/** The merchant's seed: a BIP 39 test vector, neither the public test seed nor Foundry's phrase. */
const root = rootOfPhrase('legal winner thank year wave sausage worth useful legal winner thank yellow');
const depositChain = root.derive(EVM_DEPOSIT_CHAIN_PATH);
const TREASURY_PATH = "m/44'/60'/2'/0/0";
const TREASURY = addressOfKey(root.derive(TREASURY_PATH));
const PAYER = getAddress('0x00000000000000000000000000000000000a11ce');
const ATTACKER = getAddress('0xbad0000000000000000000000000000000000bad');
const BALANCE_OF = parseAbi(['function balanceOf(address) view returns (uint256)']);
const CONFIRMATIONS = 2;

let node: EvmNode;
let token: Address;
let funder: Address;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;

withLiveNetwork(
  anvilNetwork({
    xpub: depositChain.publicExtendedKey,
    confirmations: CONFIRMATIONS,
    prepare: async (started) => {
      [funder] = started.accounts as [Address];
      token = await deployToken(started, funder, 'USDT', 6);
      // The treasury holds what it refunds and its gas.
      await started.client.wallet.sendTransaction({ account: funder, to: TREASURY, value: parseEther('5') } as never);
      await started.mine();
      await sendToken(started, token, funder, 'mint', TREASURY, 100_000_000n);
      return { ETHEREUM_TOKENS: `USDT:${token}` };
    },
  }),
  (live) => ({ node, db, merchant, adapter } = live),
);

const scope = () => ({ merchantId: merchant.merchantId, mode: 'live' as const });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe.skipIf(evmNodeMissing)('an EVM refund sent by a plan the signer signs (anvil)', () => {
  it('ETH and USDT refunds: a rewritten recipient refused with nothing kept or sent; honest plans signed, submitted, mined and confirmed; the orders never move', async () => {
    await watchLive(db, adapter);
    await setTreasury(db, { merchantId: merchant.merchantId, network: 'ethereum', mode: 'live', address: TREASURY });
    const eth = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '0.5' });
    await node.client.wallet.sendTransaction({
      account: funder,
      to: eth.address as Address,
      value: parseEther('0.5'),
    } as never);
    const usdt = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '30' });
    await sendToken(node, token, funder, 'mint', usdt.address as Address, 30_000_000n);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect((await orderRow(db, eth.id)).status).toBe('processed');
    expect((await orderRow(db, usdt.id)).status).toBe('processed');

    useDatabaseForApi(db);
    const planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'Signer',
      scopes: ['read-only', 'signing-plans'],
    });
    const config = evmSignerConfigSchema.parse({
      family: 'evm',
      network: 'ethereum',
      chainId: CHAIN_ID,
      treasury: TREASURY,
      tokens: [token],
      maxGasPayerSpend: '0.1',
      treasuryPath: TREASURY_PATH,
      node: { url: node.url },
      refundDailyCaps: { ETH: '1', USDT: '100' },
    });
    let ledger: RefundLedger = { refunds: [] };
    const steps: string[] = [];
    /** What the signer showed the merchant last. */
    let shown = '';
    /** The gateway as the signer reaches it, in this process; `rewrite` plays attacker on the plan it answers. */
    const client = (rewrite?: (plan: { transaction: { to: string } }) => void): GatewayClient => ({
      baseUrl: 'http://gateway.test',
      key: planner,
      fetch: async (input, init) => {
        steps.push(new URL(String(input)).pathname);
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
      const io = {
        ledger,
        keepLedger: (next: RefundLedger) => {
          steps.push('ledger');
          ledger = next;
        },
      };
      const sign = () =>
        signEvmRefundPlan(evmRefundPlanOf(JSON.parse(planText))!, config, root, {
          ledger,
          readPayment: nodePaymentReader(node.url, CHAIN_ID),
          confirm: async (summary) => {
            shown = summary;
            return true;
          },
        });
      return submitSigned(gateway, asked, planText, sign, io);
    }
    async function claimedRefund(orderId: string, amount: bigint) {
      const made = await makeRefund(db, scope(), {
        target: { kind: 'order', id: orderId },
        amount,
        createdBy: 'user:test',
        now: new Date(),
      });
      await confirmClaim(db, tokenOf(made.claimUrl), { address: PAYER, tag: '' }, new Date());
      return made.refund.id;
    }
    const refundOf = async (id: string) =>
      (
        await db.query<{ state: string; txid: string | null }>('select state, txid from refunds where id = $1', [id])
      )[0];
    const tokenBalance = (address: Address) =>
      node.client.readContract({ address: token, abi: BALANCE_OF, functionName: 'balanceOf', args: [address] });

    // ETH: a partial refund, prepared through the API from the treasury at its nonce.
    const ethRefund = await claimedRefund(eth.id, parseEther('0.2'));
    const prepared = await callInProcess('refund-plans/prepare', { refundId: ethRefund }, planner);
    expectDocumented('refund-plans/prepare', { ...prepared, headers: new Headers() });
    const plan = evmRefundPlanSchema.parse(prepared.body.response);
    expect(plan.transaction).toMatchObject({
      from: TREASURY,
      to: PAYER,
      value: parseEther('0.2').toString(),
      data: '0x',
      nonce: await node.client.getTransactionCount({ address: TREASURY }),
    });
    // What `npm run collect -- refund` prints of it.
    expect(planSummary(plan)).toMatch(
      new RegExp(
        `prepared {2}ethereum live: refund ${ethRefund}\n {2}0.2 ETH to ${PAYER} from the treasury ${TREASURY}`,
      ),
    );
    expect(plan.refund.payment.transfers).toEqual([
      expect.objectContaining({
        address: getAddress(eth.address),
        path: expect.stringMatching(/^m\/44'\/60'\/0'\/0\/\d+$/),
      }),
    ]);

    // The gateway playing attacker: the plan it answers pays another address. Refused before the ledger, nothing sent.
    const nonceBefore = await node.client.getTransactionCount({ address: TREASURY });
    await expect(
      signFromApi(
        ethRefund,
        client((answered) => {
          answered.transaction.to = ATTACKER;
        }),
      ),
    ).rejects.toThrow(`pays ${ATTACKER}, not ${PAYER}, the address the payer confirmed`);
    expect(steps).toEqual(['/api-gateway/refund-plans/get']);
    expect(ledger.refunds).toEqual([]);
    await node.mine();
    expect(await node.client.getTransactionCount({ address: TREASURY })).toBe(nonceBefore);
    expect(await node.client.getBalance({ address: ATTACKER })).toBe(0n);

    // Honest: signed, the ledger kept before the submission, the gateway's node took it.
    steps.length = 0;
    const before = await node.client.getBalance({ address: PAYER });
    const { signed, submitted } = await signFromApi(ethRefund, client());
    expect(steps).toEqual(['/api-gateway/refund-plans/get', 'ledger', '/api-gateway/collections/submit']);
    expect(submitted).toMatchObject({ planId: plan.planId, kind: 'refund', status: 'prepared', txid: signed.txid });
    expect(ledger.refunds).toEqual([
      expect.objectContaining({ refundId: ethRefund, txid: signed.txid, currency: 'ETH' }),
    ]);
    const got = await callInProcess('refund-plans/get', { refundId: ethRefund }, planner);
    expectDocumented('refund-plans/get', { ...got, headers: new Headers() });
    expect(got.body.response).toMatchObject({ status: 'prepared', txid: signed.txid, acceptedAt: expect.any(String) });

    await node.mine();
    await watchLive(db, adapter);
    expect(await refundOf(ethRefund)).toEqual({ state: 'sent', txid: signed.txid });
    expect(await node.client.getBalance({ address: PAYER })).toBe(before + parseEther('0.2'));
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await refundOf(ethRefund)).toEqual({ state: 'confirmed', txid: signed.txid });
    const events = await db.query<{ type: string }>('select type from events where object_id = $1 order by position', [
      ethRefund,
    ]);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['refund.sent', 'refund.confirmed']));
    expect((await callInProcess('refund-plans/get', { refundId: ethRefund }, planner)).body.response.status).toBe(
      'confirmed',
    );

    // USDT: transfer(payer, amount) on the token, from the treasury's tokens.
    const usdtRefund = await claimedRefund(usdt.id, 12_000_000n);
    const usdtPlan = evmRefundPlanSchema.parse(
      (await callInProcess('refund-plans/prepare', { refundId: usdtRefund }, planner)).body.response,
    );
    expect(usdtPlan).toMatchObject({ currency: 'USDT', token: { contract: token, decimals: 6 } });
    const usdtSigned = await signFromApi(usdtRefund, client());
    await node.mine(CONFIRMATIONS + 1);
    await watchLive(db, adapter);
    expect(await refundOf(usdtRefund)).toEqual({ state: 'confirmed', txid: usdtSigned.signed.txid });
    expect(await tokenBalance(PAYER)).toBe(12_000_000n);

    // The fee taken from an ETH refund (decision 120): the payer gets 0.1 ETH less the gas at its cap,
    // which the signer checks; a USDT refund cannot pay its fee in the token: sent whole, the choice ignored.
    const bearing = await claimedRefund(eth.id, parseEther('0.1'));
    const bearingPlan = evmRefundPlanSchema.parse(
      (await callInProcess('refund-plans/prepare', { refundId: bearing, feeFromRefund: true }, planner)).body.response,
    );
    const gasFee = BigInt(bearingPlan.transaction.gas) * BigInt(bearingPlan.transaction.maxFeePerGas);
    expect(gasFee).toBeGreaterThan(0n);
    expect(bearingPlan.transaction.value).toBe((parseEther('0.1') - gasFee).toString());
    expect(bearingPlan.refund).toMatchObject({
      amount: '0.1',
      pays: formatUnits(parseEther('0.1') - gasFee, 18),
      feeFromRefund: true,
    });
    const payerBefore = await node.client.getBalance({ address: PAYER });
    const bearingSigned = await signFromApi(bearing, client());
    await node.mine(CONFIRMATIONS + 1);
    await watchLive(db, adapter);
    expect(await refundOf(bearing)).toEqual({ state: 'confirmed', txid: bearingSigned.signed.txid });
    expect(await node.client.getBalance({ address: PAYER })).toBe(payerBefore + parseEther('0.1') - gasFee);
    const usdtWhole = await claimedRefund(usdt.id, 1_000_000n);
    const usdtWholePlan = evmRefundPlanSchema.parse(
      (await callInProcess('refund-plans/prepare', { refundId: usdtWhole, feeFromRefund: true }, planner)).body
        .response,
    );
    expect(usdtWholePlan.refund).toMatchObject({ amount: '1', pays: '1', feeFromRefund: false });
    // A refund its fee would eat whole is refused, nothing written.
    const eaten = await claimedRefund(eth.id, 1_000n);
    const refused = await callInProcess('refund-plans/prepare', { refundId: eaten, feeFromRefund: true }, planner);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      name: 'PLAN_REFUSED',
      message: expect.stringContaining('does not cover its network fee of'),
    });
    expect(await db.query('select id from collection_plans where refund_id = $1', [eaten])).toEqual([]);

    // To the address the payment came from (decisions 125, 126): the plan says the merchant chose it, the
    // signer finds it the sender of the payment on its own node and says so; sent and confirmed as any other.
    const toSender = await makeRefund(db, scope(), {
      target: { kind: 'order', id: eth.id },
      amount: parseEther('0.05'),
      to: 'sender',
      createdBy: 'user:test',
      now: new Date(),
    });
    const senderPlan = evmRefundPlanSchema.parse(
      (await callInProcess('refund-plans/prepare', { refundId: toSender.refund.id }, planner)).body.response,
    );
    expect(senderPlan.refund).toMatchObject({ destination: getAddress(funder), delivery: 'sender' });
    const senderSigned = await signFromApi(toSender.refund.id, client());
    expect(shown).toContain(`to ${getAddress(funder)}, the address the payment came from, chosen by the merchant at`);
    await node.mine(CONFIRMATIONS + 1);
    await watchLive(db, adapter);
    expect(await refundOf(toSender.refund.id)).toEqual({ state: 'confirmed', txid: senderSigned.signed.txid });

    // A refund is a new object: the orders' status never moved.
    expect((await orderRow(db, eth.id)).status).toBe('processed');
    expect((await orderRow(db, usdt.id)).status).toBe('processed');
  }, 120_000);
});
