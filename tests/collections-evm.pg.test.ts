/**
 * EVM collection on anvil (Osaka rules, EIP-7825's cap enforced): deposits collected by the
 * EIP-7702 batch and by fund-then-transfer, the treasury holding the sum each time; a batch split
 * when it would pass the cap per transaction; delegations cleared after the sweep, so that a plain
 * 21,000-gas transfer reaches a swept address; a personal address never delegated; the sweeper,
 * called by a stranger, paying the treasury only (docs/decisions/085); plans built from what the
 * node answers and signed by the signer's own code. Last, the gateway's side (docs/decisions/093):
 * orders paid in USDT, a plan prepared through the API from the gateway's records and stored,
 * signed, broadcast, and confirmed by the watcher as it sees the transfers to the treasury; and the
 * gas a fund-then-transfer left, a Funds line of its own, sent back by the next token plan when it
 * is worth more than its own transfer (docs/decisions/113).
 */
import { createPublicClient, getAddress, http, parseAbi, parseEther, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { LiveAdapter } from '@/lib/chains/live';
import { planFees, readHoldings } from '@/lib/chains/evm';
import {
  EIP_7825_TX_GAS_CAP,
  EVM_DEPOSIT_CHAIN_PATH,
  batchGasLimit,
  sweepGasFor,
  EVM_GAS_PAYER_PATH,
  addressOfKey,
  buildEvmCollectionPlan,
  signEvmPlan,
  sweeperAddress,
  sweeperDeployment,
  type EvmCollectionPlan,
  type SignedEvmTransaction,
} from '@/lib/chains/evm/transactions';
import type { Database } from '@/lib/db/client';
import { adminCommand, runAdminCommand } from '@/lib/admin';
import { createKey } from '@/lib/merchants';
import { formatUnits } from '@/lib/money';
import { gasLeftReport, setFeePayer, setTreasury } from '@/lib/payouts';
import { storedEvmPlanSchema } from '@/lib/protocol';
import { planSummary } from '../scripts/lib/plan-summary';
import { rootOfPhrase } from '../scripts/signer/sign-plan';
import { evmSignerConfigSchema, signEvmPlanText } from '../scripts/signer/sign-evm';
import { CHAIN_ID, deployToken, evmNodeMissing, sendRawAndMine, sendToken, type EvmNode } from './support/evm';
import { callInProcess, useDatabaseForApi } from './support/api-in-process';
import { createOrder } from './support/chain';
import { expectDocumented } from './support/contract';
import { watchLive, withLiveNetwork } from './support/live';
import { anvilNetwork } from './support/live-networks';
import type { TestMerchant } from './support/merchants';

/**
 * A BIP 39 test vector's phrase stands for the merchant's seed: neither the public test seed (which
 * signs test plans only) nor Foundry's phrase, whose addresses are anvil's funded accounts.
 */
const root = rootOfPhrase('legal winner thank year wave sausage worth useful legal winner thank yellow');
const TREASURY = getAddress('0x7e57000000000000000000000000000000c0ffee');
const depositPath = (index: number) => `${EVM_DEPOSIT_CHAIN_PATH}/${index}`;
const depositChain = root.derive(EVM_DEPOSIT_CHAIN_PATH);
const deposits = new Map<number, Address>();
const depositAt = (index: number) => {
  let address = deposits.get(index);
  if (!address) deposits.set(index, (address = addressOfKey(depositChain.deriveChild(index))));
  return address;
};
const gasPayer = addressOfKey(root.derive(EVM_GAS_PAYER_PATH));
const BALANCE_OF = parseAbi(['function balanceOf(address) view returns (uint256)']);
const SWEEP = parseAbi(['function sweep(address[] tokens)']);

const CONFIRMATIONS = 2;
let node: EvmNode;
let token: Address;
let funder: Address;
let stranger: Address;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;

// One anvil for the file, the gateway configured on it (its deposit key the merchant's seed's chain).
withLiveNetwork(
  anvilNetwork({
    xpub: depositChain.publicExtendedKey,
    confirmations: CONFIRMATIONS,
    prepare: async (started) => {
      [funder, , stranger] = started.accounts as [Address, Address, Address];
      token = await deployToken(started, funder, 'USDT', 6);
      // Anyone may deploy the sweeper of a treasury: its address and code follow from the treasury alone.
      const deployment = sweeperDeployment(TREASURY);
      await started.client.wallet.sendTransaction({ account: funder, ...deployment, gas: 1_000_000n } as never);
      await started.client.wallet.sendTransaction({ account: funder, to: gasPayer, value: parseEther('50') } as never);
      await started.mine();
      expect(await started.client.getCode({ address: sweeperAddress(TREASURY) })).toMatch(/^0x[0-9a-f]{100,}$/);
      return { ETHEREUM_TOKENS: `USDT:${token}` };
    },
  }),
  (live) => ({ node, db, merchant, adapter } = live),
);

describe.skipIf(evmNodeMissing)('EVM collection (anvil, Osaka)', () => {
  const tokenBalance = (address: Address) =>
    node.client.readContract({ address: token, abi: BALANCE_OF, functionName: 'balanceOf', args: [address] });
  const nativeBalance = (address: Address) => node.client.getBalance({ address });

  /** Pays `tokens` base units to the first addresses and `native` wei to the next, in one block. */
  async function pay(tokens: [number, bigint][], native: [number, bigint][]): Promise<void> {
    // Sent at once, each with its own nonce: one by one, 170 of them took seconds.
    const first = await node.client.getTransactionCount({ address: funder, blockTag: 'pending' });
    const mint = parseAbi(['function mint(address to, uint256 value)']);
    await Promise.all([
      ...tokens.map(([index, amount], i) =>
        node.client.wallet.writeContract({
          account: funder,
          address: token,
          abi: mint,
          functionName: 'mint',
          args: [depositAt(index), amount],
          gas: 200_000n,
          nonce: first + i,
        } as never),
      ),
      ...native.map(([index, value], i) =>
        node.client.wallet.sendTransaction({
          account: funder,
          to: depositAt(index),
          value,
          nonce: first + tokens.length + i,
        } as never),
      ),
    ]);
    await node.mine();
  }

  /** What the gateway reads of the node for a plan, through a batching client as the gateway's own (lib/chains/evm node.ts). */
  async function holdingsOf(indexes: number[], personal: number[] = []) {
    const client = createPublicClient({ transport: http(node.url, { batch: { batchSize: 50 }, retryCount: 0 }) });
    return {
      holdings: await readHoldings(
        client,
        indexes.map((i) => ({ address: depositAt(i), path: depositPath(i), personal: personal.includes(i) })),
        [token],
      ),
      fees: await planFees(client),
    };
  }

  async function plan(
    indexes: number[],
    method: 'sweep' | 'transfers',
    options: { personal?: number[]; txGasCap?: bigint; read?: Awaited<ReturnType<typeof holdingsOf>> } = {},
  ): Promise<EvmCollectionPlan> {
    const { holdings, fees } = options.read ?? (await holdingsOf(indexes, options.personal));
    const built = buildEvmCollectionPlan({
      planId: crypto.randomUUID(),
      mode: 'live',
      network: { name: 'ethereum', chainId: CHAIN_ID, nativeTicker: 'ETH', txGasCap: options.txGasCap },
      tokens: [{ ticker: 'USDT', contract: token, decimals: 6 }],
      treasury: TREASURY,
      gasPayer: {
        address: gasPayer,
        path: EVM_GAS_PAYER_PATH,
        nonce: await node.client.getTransactionCount({ address: gasPayer }),
      },
      deposits: holdings,
      fees,
      blockGasLimit: fees.blockGasLimit,
      method,
      createdAt: new Date().toISOString(),
    });
    expect(built).not.toBeNull();
    return built!;
  }

  /** The signer's path, from the plan as JSON to its signed transactions. */
  async function sign(p: EvmCollectionPlan): Promise<SignedEvmTransaction[]> {
    const config = evmSignerConfigSchema.parse({
      family: 'evm',
      network: 'ethereum',
      chainId: CHAIN_ID,
      treasury: TREASURY,
      tokens: [token],
      maxGasPayerSpend: '10',
    });
    const signed = await signEvmPlanText(JSON.stringify(p), config, root, { confirm: async () => true });
    return signed.transactions;
  }

  const send = (txs: SignedEvmTransaction[]) =>
    sendRawAndMine(
      node,
      txs.map((t) => t.raw),
    );

  /** Gas payer's transactions first (funding), then the deposit keys': a deposit pays its gas with what was funded. */
  async function broadcast(txs: SignedEvmTransaction[]) {
    const first = await send(txs.filter((t) => t.from === gasPayer));
    const then = await send(txs.filter((t) => t.from !== gasPayer));
    return [...first, ...then];
  }

  const delegation = async (address: Address) => (await node.client.getCode({ address })) ?? '0x';

  it('collects 20 token and 5 native deposits once by the batch and once by fund-then-transfer, the treasury holding the sum', async () => {
    const indexes = Array.from({ length: 25 }, (_, i) => i);
    const tokens = indexes.slice(0, 20).map((i): [number, bigint] => [i, BigInt(i + 1) * 1_000_000n]);
    const native = indexes.slice(20).map((i): [number, bigint] => [i, parseEther('0.01') * BigInt(i)]);
    const tokenSum = tokens.reduce((s, [, a]) => s + a, 0n);
    const nativeSum = native.reduce((s, [, a]) => s + a, 0n);

    await pay(tokens, native);
    const batch = await plan(indexes, 'sweep');
    expect(batch.transactions.map((t) => t.purpose)).toEqual(['sweep', 'clear']);
    expect(batch.transactions[0]!.authorizations).toHaveLength(25);
    const receipts = await broadcast(await sign(batch));
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
    expect(await tokenBalance(TREASURY)).toBe(tokenSum);
    expect(await nativeBalance(TREASURY)).toBe(nativeSum);
    for (const i of indexes) {
      expect(await tokenBalance(depositAt(i))).toBe(0n);
      expect(await nativeBalance(depositAt(i))).toBe(0n);
      expect(await delegation(depositAt(i))).toBe('0x');
    }
    // Cleared: a plain transfer of the native coin, as exchanges send it, reaches a swept address.
    const plain = await node.client.wallet.sendTransaction({
      account: funder,
      to: depositAt(0),
      value: 1n,
      gas: 21_000n,
    } as never);
    await node.mine();
    expect((await node.client.getTransactionReceipt({ hash: plain })).status).toBe('success');

    // The same deposits again (the pool hands the cleared addresses out again), collected by the fallback.
    await pay(tokens, native);
    const transfers = await plan(indexes, 'transfers');
    expect(transfers.transactions.filter((t) => t.purpose === 'fund')).toHaveLength(20);
    expect(transfers.transactions.some((t) => t.authorizations.length > 0)).toBe(false);
    const fallback = await broadcast(await sign(transfers));
    expect(fallback.every((r) => r.status === 'success')).toBe(true);
    expect(await tokenBalance(TREASURY)).toBe(2n * tokenSum);
    // Each native deposit paid its own transfer's fee at the plan's fee cap: the treasury has the rest.
    const nativeFees = transfers.transactions
      .filter((t) => t.purpose === 'transfer' && t.to === TREASURY)
      .reduce((s, t) => s + BigInt(t.gas) * BigInt(t.maxFeePerGas), 0n);
    expect(await nativeBalance(TREASURY)).toBe(2n * nativeSum - nativeFees);
  }, 120_000);

  it('a delegated address refuses a 21,000-gas transfer until cleared; a stranger calling the sweeper pays the treasury only; a personal address is never delegated', async () => {
    const [pool, personal] = [40, 41];
    await pay(
      [
        [pool, 5_000_000n],
        [personal, 7_000_000n],
      ],
      [],
    );
    const p = await plan([pool, personal], 'sweep', { personal: [personal] });
    expect(p.items.find((i) => i.address === depositAt(personal))!.method).toBe('transfers');
    const authorized = p.transactions.flatMap((t) => t.authorizations.map((a) => a.address));
    expect(authorized).toContain(depositAt(pool));
    expect(authorized).not.toContain(depositAt(personal));

    const signed = await sign(p);
    const treasuryBefore = await tokenBalance(TREASURY);
    await send(signed.filter((t) => t.purpose === 'sweep'));
    expect(await delegation(depositAt(pool))).toBe(`0xef0100${sweeperAddress(TREASURY).slice(2).toLowerCase()}`);
    expect(await delegation(depositAt(personal))).toBe('0x');
    expect(await tokenBalance(TREASURY)).toBe(treasuryBefore + 5_000_000n);

    // Delegated, the address runs the sweeper's receive(): 21,000 gas is not enough.
    const refused = await node.client.wallet.sendTransaction({
      account: funder,
      to: depositAt(pool),
      value: 1n,
      gas: 21_000n,
    } as never);
    await node.mine();
    expect((await node.client.getTransactionReceipt({ hash: refused })).status).toBe('reverted');

    // A late payment to the still-delegated address: anyone may sweep it, and it goes to the treasury.
    await pay([[pool, 3_000_000n]], []);
    const strangerNative = await nativeBalance(stranger);
    const call = await node.client.wallet.writeContract({
      account: stranger,
      address: depositAt(pool),
      abi: SWEEP,
      functionName: 'sweep',
      args: [[token]],
      gas: 200_000n,
    } as never);
    await node.mine();
    const receipt = await node.client.getTransactionReceipt({ hash: call });
    expect(receipt.status).toBe('success');
    expect(await tokenBalance(TREASURY)).toBe(treasuryBefore + 8_000_000n);
    expect(await tokenBalance(stranger)).toBe(0n);
    expect(await nativeBalance(stranger)).toBe(strangerNative - receipt.gasUsed * receipt.effectiveGasPrice);
    // The stranger calling the sweeper's own code gets nothing either: it sweeps the sweeper's (empty) balances.
    await sendToken(node, token, funder, 'mint', sweeperAddress(TREASURY), 1_000_000n);
    await node.client.wallet.writeContract({
      account: stranger,
      address: sweeperAddress(TREASURY),
      abi: SWEEP,
      functionName: 'sweep',
      args: [[token]],
      gas: 200_000n,
    } as never);
    await node.mine();
    expect(await tokenBalance(TREASURY)).toBe(treasuryBefore + 9_000_000n);
    expect(await tokenBalance(stranger)).toBe(0n);

    // The rest of the plan: the clear, and the personal address's fund-then-transfer.
    const rest = await broadcast(signed.filter((t) => t.purpose !== 'sweep'));
    expect(rest.every((r) => r.status === 'success')).toBe(true);
    expect(await delegation(depositAt(pool))).toBe('0x');
    expect(await delegation(depositAt(personal))).toBe('0x');
    expect(await tokenBalance(TREASURY)).toBe(treasuryBefore + 16_000_000n);
    const plain = await node.client.wallet.sendTransaction({
      account: funder,
      to: depositAt(pool),
      value: 1n,
      gas: 21_000n,
    } as never);
    await node.mine();
    expect((await node.client.getTransactionReceipt({ hash: plain })).status).toBe('success');
  }, 120_000);

  it('splits the batch across transactions when one would pass the cap per transaction', async () => {
    const indexes = Array.from({ length: 170 }, (_, i) => 100 + i);
    await pay(
      indexes.map((i): [number, bigint] => [i, 1_000_000n]),
      [],
    );
    const treasuryBefore = await tokenBalance(TREASURY);

    // Unsplit (as if the network had no cap), the batch is one transaction that anvil in the Osaka rules refuses.
    const read = await holdingsOf(indexes);
    const unsplit = await plan(indexes, 'sweep', { txGasCap: 2n ** 40n, read });
    expect(unsplit.transactions.filter((t) => t.purpose === 'sweep')).toHaveLength(1);
    expect(BigInt(unsplit.transactions[0]!.gas)).toBeGreaterThan(EIP_7825_TX_GAS_CAP);
    const [tooBig] = await signEvmPlan({ ...unsplit, transactions: unsplit.transactions.slice(0, 1) }, root);
    await expect(node.client.sendRawTransaction({ serializedTransaction: tooBig!.raw as Hex })).rejects.toThrow(
      /gas limit|gas_limit|cap/i,
    );

    const split = await plan(indexes, 'sweep', { read });
    const sweeps = split.transactions.filter((t) => t.purpose === 'sweep');
    expect(sweeps).toHaveLength(2);
    for (const t of split.transactions) expect(BigInt(t.gas)).toBeLessThanOrEqual(EIP_7825_TX_GAS_CAP);
    expect(sweeps.flatMap((t) => t.authorizations.map((a) => a.address))).toEqual(indexes.map(depositAt));
    const receipts = await broadcast(await sign(split));
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success']);
    expect(await tokenBalance(TREASURY)).toBe(treasuryBefore + 170n * 1_000_000n);
    for (const i of [100, 269]) expect(await delegation(depositAt(i))).toBe('0x');
  }, 180_000);
  it("the gateway's side: prepared through the API from its records, signed, broadcast, confirmed by the watcher", async () => {
    // The blocks of the tests above, scanned before any address is issued: they pay no order.
    await watchLive(db, adapter);
    await setTreasury(db, { merchantId: merchant.merchantId, network: 'ethereum', mode: 'live', address: TREASURY });
    const amounts = [5_000_000n, 7_000_000n];
    const paid: Address[] = [];
    for (const amount of amounts) {
      const order = await createOrder(db, merchant.live, {
        currency: 'USDT',
        network: 'ethereum',
        amount: formatUnits(amount, 6),
      });
      paid.push(getAddress(order.address));
      await sendToken(node, token, funder, 'mint', order.address as Address, amount);
    }
    // Coin paid to a USDT address too: the sweep moves it by its internal call, which the watcher never sees.
    await node.client.wallet.sendTransaction({ account: funder, to: paid[0]!, value: parseEther('0.01') } as never);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);

    useDatabaseForApi(db);
    const planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'Signer',
      scopes: ['read-only', 'signing-plans'],
    });
    const asked = { network: 'ethereum', feePayer: { address: gasPayer, path: EVM_GAS_PAYER_PATH } };
    expect((await callInProcess('collections/prepare', { network: 'ethereum' }, planner)).body.error).toMatchObject({
      name: 'PLAN_REFUSED',
      message: expect.stringContaining('needs feePayer'),
    });
    const prepared = await callInProcess('collections/prepare', asked, planner);
    expectDocumented('collections/prepare', { ...prepared, headers: new Headers() });
    const plan = storedEvmPlanSchema.parse(prepared.body.response);
    expect(plan.transactions.map((t) => t.purpose)).toEqual(['sweep', 'clear']);
    expect(plan.items.map((i) => i.address)).toEqual(paid);
    expect(plan.status).toBe('prepared');
    const usdtFunds = async () =>
      (await callInProcess('funds/list', {}, planner)).body.response.funds.find(
        (f: { network: string; currency: string }) => f.network === 'ethereum' && f.currency === 'USDT',
      )?.total;
    expect(await usdtFunds()).toBe('12');
    const ethFunds = async () =>
      (await callInProcess('funds/list', {}, planner)).body.response.funds.find(
        (f: { network: string; currency: string }) => f.network === 'ethereum' && f.currency === 'ETH',
      )?.total;
    expect(await ethFunds()).toBe('0.01');
    // Before signing, the cost per address by the planner's own bounds at the node's fee cap, in the coin.
    const line = (await callInProcess('funds/list', {}, planner)).body.response.funds.find(
      (f: { currency: string }) => f.currency === 'USDT',
    );
    const fees = await planFees(node.client);
    const perAddress =
      (sweepGasFor(2, batchGasLimit(EIP_7825_TX_GAS_CAP, fees.blockGasLimit)) / 2n) * fees.maxFeePerGas;
    expect(line.costPerAddress).toEqual({ amount: formatUnits(perAddress, 18), currency: 'ETH' });
    const planStatus = async () => {
      const got = await callInProcess('collections/get', { id: plan.planId }, planner);
      expectDocumented('collections/get', { ...got, headers: new Headers() });
      return got.body.response.status as string;
    };

    const treasuryBefore = await tokenBalance(TREASURY);
    // And coin paid in the sweep's own block, ahead of it (the higher tip goes first): swept too.
    const ahead = await node.client.wallet.sendTransaction({
      account: funder,
      to: paid[1]!,
      value: parseEther('0.02'),
      gas: 100_000n,
      maxFeePerGas: BigInt(plan.transactions[0]!.maxFeePerGas) * 10n,
      maxPriorityFeePerGas: BigInt(plan.transactions[0]!.maxFeePerGas) * 10n,
    } as never);
    const receipts = await broadcast(await sign(plan));
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
    const aheadIn = await node.client.getTransactionReceipt({ hash: ahead });
    expect([aheadIn.blockNumber, aheadIn.transactionIndex]).toEqual([receipts[0]!.blockNumber, 0]);
    expect(await tokenBalance(TREASURY)).toBe(treasuryBefore + 12_000_000n);
    expect(await planStatus()).toBe('prepared');
    await watchLive(db, adapter);
    expect(await planStatus()).toBe('broadcast');
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await planStatus()).toBe('confirmed');
    // Collected: the Funds report no longer counts those deposits, nor the coin the sweep moved (decision 122):
    // the coin's line is what the node says the addresses hold.
    expect(await usdtFunds()).toBeUndefined();
    expect([await nativeBalance(paid[0]!), await nativeBalance(paid[1]!)]).toEqual([0n, 0n]);
    expect(await ethFunds()).toBeUndefined();

    // The coin: each address's own transfer to the treasury, its fee paid from it, seen by the watcher too.
    const coin = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '0.05' });
    await node.client.wallet.sendTransaction({
      account: funder,
      to: coin.address as Address,
      value: parseEther('0.05'),
    } as never);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    // The gas payer kept in the merchant's settings (docs/decisions/099): a prepare that names none uses it.
    await setFeePayer(db, { merchantId: merchant.merchantId, network: 'ethereum', mode: 'live', ...asked.feePayer });
    // Prepared by `npm run collect -- prepare NAME ethereum --currency ETH` (its command, parsed as the CLI's is):
    // the stored plan, the JSON the signer reads, with the same summary the Bitcoin family's prepare prints.
    const [{ name }] = (await db.query<{ name: string }>('select name from merchants where id = $1', [
      merchant.merchantId,
    ])) as [{ name: string }];
    const command = adminCommand.parse({
      command: 'collect.prepare',
      merchant: name,
      network: 'ethereum',
      mode: 'live',
      currency: 'ETH',
    });
    const ethPlan = storedEvmPlanSchema.parse(await runAdminCommand(db, command));
    expect(ethPlan.gasPayer).toEqual(asked.feePayer);
    expect(planSummary(ethPlan)).toMatch(/^\S+ {2}prepared {2}ethereum live: 1 addresses of the coin\n {2}to 0x/);
    expect((await callInProcess('collections/get', { id: ethPlan.planId }, planner)).body.response).toEqual(ethPlan);
    expect(ethPlan.transactions.map((t) => [t.purpose, t.from, t.to])).toEqual([
      ['transfer', getAddress(coin.address), TREASURY],
    ]);
    const treasuryCoin = await nativeBalance(TREASURY);
    await broadcast(await sign(ethPlan));
    expect(await nativeBalance(TREASURY)).toBe(treasuryCoin + BigInt(ethPlan.transactions[0]!.value));
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    const ethStatus = await callInProcess('collections/get', { id: ethPlan.planId }, planner);
    expect(ethStatus.body.response.status).toBe('confirmed');

    // Stale (docs/decisions/099): the gas payer spends the plan's nonces on other transactions; the
    // watcher sees its nonce pass the plan's without the plan's transfers, and the plan's deposit is free again.
    const late = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '3' });
    await sendToken(node, token, funder, 'mint', late.address as Address, 3_000_000n);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    const stale = storedEvmPlanSchema.parse(
      (await callInProcess('collections/prepare', { network: 'ethereum' }, planner)).body.response,
    );
    const payer = privateKeyToAccount(toHex(root.derive(EVM_GAS_PAYER_PATH).privateKey!));
    const elsewhere = await Promise.all(
      stale.transactions.map((t) =>
        payer.signTransaction({
          type: 'eip1559',
          chainId: CHAIN_ID,
          nonce: t.nonce,
          to: funder,
          value: 1n,
          gas: 21_000n,
          maxFeePerGas: BigInt(t.maxFeePerGas),
          maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas),
        }),
      ),
    );
    await sendRawAndMine(node, elsewhere);
    await watchLive(db, adapter);
    const staleStatus = (await callInProcess('collections/get', { id: stale.planId }, planner)).body.response;
    expect(staleStatus).toMatchObject({ status: 'stale', reason: expect.stringContaining('nonces were used') });
    expect(
      await db.query('select 1 from events where type = $1 and object_id = $2', ['collection.stale', stale.planId]),
    ).toHaveLength(1);
    const again = await callInProcess('collections/prepare', { network: 'ethereum' }, planner);
    expect(storedEvmPlanSchema.parse(again.body.response).items.map((i) => i.address)).toEqual([
      getAddress(late.address),
    ]);
  }, 120_000);

  it('the gas a fund left: a line of its own, sent back by the next token plan when worth more than its transfer', async () => {
    useDatabaseForApi(db);
    const planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'Gas',
      scopes: ['read-only', 'signing-plans'],
    });
    // Two addresses the gas payer funded (as its `fund` does), their gas left unused: one worth its
    // own transfer back, one below that transfer's fee. Their orders are in USDT: the coin pays none.
    const [worth, dust] = await Promise.all(
      ['1', '2'].map((amount) => createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount })),
    );
    const payer = privateKeyToAccount(toHex(root.derive(EVM_GAS_PAYER_PATH).privateKey!));
    for (const [to, value] of [
      [worth!.address, parseEther('0.003')],
      [dust!.address, 1_000n],
    ] as const)
      await node.client.wallet.sendTransaction({ account: payer, to: to as Address, value } as never);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    // What their token transfers left of it (the pool's addresses were used above: set, not added).
    await node.client.setBalance({ address: worth!.address as Address, value: parseEther('0.003') });
    await node.client.setBalance({ address: dust!.address as Address, value: 1_000n });

    const fees = await planFees(node.client);
    expect(await gasLeftReport(db, merchant.merchantId, 'live')).toEqual([
      {
        network: 'ethereum',
        currency: 'ETH',
        addresses: 2,
        left: parseEther('0.003') + 1_000n,
        costPerAddress: 21_000n * fees.maxFeePerGas,
        worthReturning: 1,
      },
    ]);
    // The same line through the signed API, in the coin's decimals (decision 117); a fund is no
    // payment: the coin's Funds line leaves it out.
    const listed = await callInProcess('funds/list', {}, planner);
    expectDocumented('funds/list', { ...listed, headers: new Headers() });
    expect(listed.body.response.gasLeft).toEqual([
      {
        network: 'ethereum',
        currency: 'ETH',
        addresses: 2,
        read: true,
        left: formatUnits(parseEther('0.003') + 1_000n, 18),
        costPerAddress: { amount: formatUnits(21_000n * fees.maxFeePerGas, 18), currency: 'ETH' },
        worthReturning: 1,
      },
    ]);
    const funds = listed.body.response.funds;
    expect(funds.find((f: { currency: string }) => f.currency === 'ETH')).toBeUndefined();

    // Checked against the node (decision 122): per address, what the records say it holds against
    // its balance; the one whose balance is another is the difference.
    const checkOf = async (currency: string) => {
      const got = await callInProcess('funds/check', {}, planner);
      expect(got.status).toBe(200);
      expectDocumented('funds/check', { ...got, headers: new Headers() });
      return got.body.response.checks.find(
        (c: { network: string; currency: string }) => c.network === 'ethereum' && c.currency === currency,
      );
    };
    expect(await checkOf('ETH')).toEqual({
      network: 'ethereum',
      currency: 'ETH',
      outputs: 2,
      checked: true,
      reason: null,
      differences: [],
    });
    expect(await checkOf('USDT')).toMatchObject({ checked: true, differences: [] });
    await node.client.setBalance({ address: dust!.address as Address, value: 500n });
    expect((await checkOf('ETH')).differences).toEqual([
      {
        txid: null,
        vout: null,
        address: dust!.address,
        recorded: formatUnits(1_000n, 18),
        atNode: formatUnits(500n, 18),
      },
    ]);
    await node.client.setBalance({ address: dust!.address as Address, value: 1_000n });

    // The next token plan: the new deposit swept, the gas left worth it sent back by its own transfer.
    const paid = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '4' });
    await sendToken(node, token, funder, 'mint', paid.address as Address, 4_000_000n);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    const plan = storedEvmPlanSchema.parse(
      (await callInProcess('collections/prepare', { network: 'ethereum' }, planner)).body.response,
    );
    // (The previous test's open plan went stale when the gas payer's funds above took its nonce: its
    // deposit is swept here too.)
    expect(plan.items.filter((i) => i.method === 'transfers').map((i) => i.address)).toEqual([
      getAddress(worth!.address),
    ]);
    expect(plan.items.map((i) => i.address)).toContain(getAddress(paid.address));
    expect(plan.items.map((i) => i.address)).not.toContain(getAddress(dust!.address));
    const back = plan.transactions.find((t) => t.from === getAddress(worth!.address))!;
    expect([back.purpose, back.to, BigInt(back.value)]).toEqual([
      'transfer',
      TREASURY,
      parseEther('0.003') - 21_000n * BigInt(back.maxFeePerGas),
    ]);
    const treasuryCoin = await nativeBalance(TREASURY);
    await broadcast(await sign(plan));
    // (The sweep also pays the treasury what its addresses held of the coin.)
    expect(await nativeBalance(TREASURY)).toBeGreaterThanOrEqual(treasuryCoin + BigInt(back.value));
    // Left on it: only its transfer's fee cap less what the transfer paid.
    expect(await nativeBalance(worth!.address as Address)).toBeLessThan(21_000n * BigInt(back.maxFeePerGas));
    await watchLive(db, adapter);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect((await callInProcess('collections/get', { id: plan.planId }, planner)).body.response.status).toBe(
      'confirmed',
    );
    // Returned: only the dust is left, which would cost more than it holds.
    expect(await gasLeftReport(db, merchant.merchantId, 'live')).toMatchObject([
      { network: 'ethereum', addresses: 1, left: 1_000n, worthReturning: 0 },
    ]);
    // The node away (stopped: the file's last use of it): the answer stands, the line without its
    // figures and saying they were not read.
    await node.close();
    expect(await checkOf('ETH')).toMatchObject({
      checked: false,
      reason: 'the ethereum node did not answer: try again',
      differences: [],
    });
    const away = await callInProcess('funds/list', {}, planner);
    expect(away.status).toBe(200);
    expectDocumented('funds/list', { ...away, headers: new Headers() });
    expect(away.body.response.gasLeft).toEqual([
      {
        network: 'ethereum',
        currency: 'ETH',
        addresses: 1,
        read: false,
        left: null,
        costPerAddress: null,
        worthReturning: null,
      },
    ]);
  }, 60_000);
});
