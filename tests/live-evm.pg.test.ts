/**
 * Live mode on a real EVM node: anvil from its npm platform package (JSON-RPC over HTTP on
 * 127.0.0.1), the EVM adapter over viem, the watcher and the state machine. The test token is
 * compiled here from tests/fixtures/TestToken.sol with the npm solc compiler and deployed twice:
 * once as the configured USDT, once as an unconfigured look-alike.
 */
import { parseEther, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { HDKey } from '@scure/bip32';
import { availableCurrencies } from '@/lib/chains';
import { liveNetworks, type LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import { loadPublicView } from '@/lib/pay/public-view';
import { createOrder, orderRow } from './support/chain';
import { CHAIN_ID, deployToken, evmNodeMissing, sendToken, type EvmNode } from './support/evm';
import { configureLive, randomChain, watchLive, withLiveNetwork } from './support/live';
import { anvilNetwork } from './support/live-networks';
import type { TestMerchant } from './support/merchants';

const CONFIRMATIONS = 3;
let node: EvmNode;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;
let payer: Address;
let usdt: Address;
let rogue: Address;

withLiveNetwork(
  anvilNetwork({
    xpub: randomChain("m/44'/60'/0'/0", false).xpub,
    confirmations: CONFIRMATIONS,
    prepare: async (node) => {
      payer = node.accounts[0]!;
      usdt = await deployToken(node, payer, 'USDT', 6);
      rogue = await deployToken(node, payer, 'USDT', 6);
      await sendToken(node, usdt, payer, 'mint', payer, 1_000_000_000n);
      await sendToken(node, rogue, payer, 'mint', payer, 1_000_000_000n);
      await node.mine();
      return { ETHEREUM_TOKENS: `USDT:${usdt}` };
    },
  }),
  (live) => ({ node, db, merchant, adapter } = live),
);

async function transfersOf(orderId: string) {
  return db.query<{ tx_hash: string; currency: string; amount: string; dropped: boolean }>(
    'select tx_hash, currency, amount, dropped from chain_transfers where order_id = $1',
    [orderId],
  );
}

const sendEth = (to: string, value: bigint) =>
  node.client.wallet.sendTransaction({ account: payer, to: to as Address, value } as never);

describe.skipIf(evmNodeMissing)('live ethereum (anvil)', () => {
  it('a native ETH payment completes its order at the required confirmations', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '0.5' });
    expect(order.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const tx = await sendEth(order.address, parseEther('0.5'));
    await node.mine();
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toEqual([
      { tx_hash: tx, currency: 'ETH', amount: '500000000000000000', dropped: false },
    ]);
    expect((await orderRow(db, order.id)).status).toBe('pending');
    await node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '500000000000000000' });
  });

  it('an ERC-20 payment from the configured contract completes its order', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '12.5' });
    // The payment page asks for the configured token and counts the configured confirmations.
    const page = await loadPublicView(db, order.id);
    expect(page!.walletUri).toBe(`ethereum:${usdt}@${CHAIN_ID}/transfer?address=${order.address}&uint256=12500000`);
    expect(page!.requiredConfirmations).toBe(CONFIRMATIONS);
    await sendToken(node, usdt, payer, 'transfer', order.address as Address, 12_500_000n);
    await node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '12500000' });
  });

  it('a Transfer event of an unconfigured contract, or of a reverted transaction, credits nothing', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '5' });
    const fake = await sendToken(node, rogue, payer, 'transfer', order.address as Address, 5_000_000n);
    const reverted = await sendToken(node, usdt, payer, 'transferThenRevert', order.address as Address, 5_000_000n);
    await node.mine(CONFIRMATIONS + 1);
    // The look-alike did emit its Transfer to the order's address; the reverted call has status 0.
    expect((await node.client.getTransactionReceipt({ hash: fake })).logs).toHaveLength(1);
    expect((await node.client.getTransactionReceipt({ hash: reverted })).status).toBe('reverted');
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toEqual([]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
  });

  it('one wei or one token unit short leaves the order unpaid', async () => {
    const eth = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '1' });
    const token = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '10' });
    await sendEth(eth.address, parseEther('1') - 1n);
    await sendToken(node, usdt, payer, 'transfer', token.address as Address, 9_999_999n);
    await node.mine(CONFIRMATIONS + 2);
    await watchLive(db, adapter);
    expect(await orderRow(db, eth.id)).toMatchObject({ status: 'pending', received: '999999999999999999' });
    expect(await orderRow(db, token.id)).toMatchObject({ status: 'pending', received: '9999999' });
  });

  it('a reorganisation (snapshot/revert) before finality un-counts the payment', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '0.25' });
    const snapshot = await node.client.request({ method: 'evm_snapshot' } as never);
    const tx = await sendEth(order.address, parseEther('0.25'));
    await node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect((await transfersOf(order.id)).map((t) => t.tx_hash)).toEqual([tx]);

    // The chain goes back to before the payment and grows past it without it.
    await node.client.request({ method: 'evm_revert', params: [snapshot] } as never);
    await node.mine(CONFIRMATIONS + 2);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toMatchObject([{ tx_hash: tx, dropped: true }]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
    const [events] = await db.query<{ n: number }>('select count(*)::int as n from order_events where order_id = $1', [
      order.id,
    ]);
    expect(events!.n).toBe(0);
  });

  it('available-currencies for live keys lists only the configured network and tokens; test keys keep the catalog', () => {
    const live = availableCurrencies('live');
    expect(live.map((c) => c.currency)).toEqual(['ETH', 'USDT']);
    expect(live.find((c) => c.currency === 'USDT')!.networks).toEqual([
      expect.objectContaining({ network: 'ethereum', contract: usdt, decimals: 6, confirmations: CONFIRMATIONS }),
    ]);
    expect(availableCurrencies('test').find((c) => c.currency === 'USDT')!.networks.length).toBeGreaterThan(3);
  });

  it('an unusable extended public key stops start-up naming its variable', () => {
    const xpub = process.env.ETHEREUM_XPUB!;
    try {
      configureLive({ ETHEREUM_XPUB: xpub.slice(0, -2) });
      expect(() => liveNetworks()).toThrow(/ETHEREUM_XPUB: Extended public key is not valid base58check/);
      configureLive({ ETHEREUM_XPUB: HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).privateExtendedKey });
      expect(() => liveNetworks()).toThrow(/ETHEREUM_XPUB: Refusing an extended PRIVATE key/);
    } finally {
      configureLive({ ETHEREUM_XPUB: xpub });
    }
  });
});
