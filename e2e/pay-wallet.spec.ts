/**
 * "Pay with wallet" against a real EVM node: anvil (tests/support/evm.ts, JSON-RPC on 127.0.0.1,
 * blocks mined when this spec says) is the gateway's live `ethereum` network, with a test ERC-20
 * deployed as its USDT; the gateway is one of this spec's own (pay-support.ts startOwnGateway)
 * with a live key, so its orders are paid on the node and completed by the normal watcher.
 *
 * No wallet extension runs in headless Chromium, so the page gets a small EIP-1193 provider as
 * `window.ethereum` (page.addInitScript), playing the part of a wallet on a funded account: it
 * answers `eth_requestAccounts`, `eth_chainId` and `wallet_switchEthereumChain` itself (starting
 * on chain 1, as a wallet on Ethereum mainnet would) and relays everything else, above all
 * `eth_sendTransaction`, to the node (page.exposeFunction), which holds the account unlocked and
 * executes the transaction for real. Error codes follow EIP-1193 (4001 refused) and EIP-3326
 * (4902 unknown chain). Wallets that announce themselves (EIP-6963) are such providers too, each
 * on its own account and each recording what it was asked (injectAnnouncedWallets).
 *
 * The same wallet sends a merchant's refund from the dashboard ("Send with wallet", docs/decisions/098):
 * a partial refund of a paid order, claimed by its payer, sent from the treasury's account and
 * recorded from its block, the order's status unchanged throughout. The gateway's live `ripple`
 * network is a fake rippled (tests/support/fake-rippled.ts) in this process, for the XRP refund
 * with a destination tag, sent by hand and completed by its transaction id (decision 092). Its live
 * `tron` network is the fake java-tron (tests/support/fake-tron-node.ts) in this process, for a TRX
 * refund by "Send with TronLink" (decision 124): the page gets a minimal TronLink whose wallet signs
 * with the treasury's test key here and broadcasts to the fake node's HTTP API. Its live
 * `litecoin` network is litecoind in regtest (tests/support/live-networks.ts), for issue 37's refund
 * by plan (decision 081): a USD invoice paid in LTC to the merchant's own descriptor, refunded in
 * full at the invoice's rate, the plan signed by the signer's functions (checked against the node)
 * in this process, broadcast from the node, and confirmed by the watcher.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { type Address, type Hex } from 'viem';
import {
  buildTransaction,
  encodeSignedTransaction,
  signTransactionId,
  tronAddress,
  tronRefundContract,
} from '@/lib/chains/tron/transactions';
import { refundPlanSchema, type Invoice } from '@/lib/protocol';
import type { Litecoind } from '../scripts/lib/litecoind.mjs';
import {
  nodeInChainCheck,
  nodeUnspentCheck,
  rootOfPhrase,
  signerConfigSchema,
  signPlan,
} from '../scripts/signer/sign-plan';
import { CHAIN_ID, deployToken, evmNodeMissing, sendToken, startEvmNode, type EvmNode } from '../tests/support/evm';
import { startFakeRippled, type FakeRippled } from '../tests/support/fake-rippled';
import { randomTronAccount, startFakeTronNode, type FakeTronNode } from '../tests/support/fake-tron-node';
import { litecoindNetwork } from '../tests/support/live-networks';
import { expectAccessible, expectNoHorizontalScroll, PHONE, startOwnGateway, type OwnGateway } from './pay-support';
import { createUser } from './support/dashboard';
import { expect, makeOrder, test } from './support/fixtures';

const CONFIRMATIONS = 2;
const NODE_CHAIN = `0x${CHAIN_ID.toString(16)}`;

/** The gateway's XRP account (RIPPLE_ADDRESS), and a payer's, who gives a destination tag. */
const XRP_ACCOUNT = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const XRP_PAYER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';

/** The merchant's Tron treasury: its key signs only in this process, for the injected TronLink. */
const TRON_TREASURY_KEY = randomBytes(32);
const TRON_TREASURY = tronAddress(secp256k1.getPublicKey(TRON_TREASURY_KEY));

/**
 * The merchant's own seed (a BIP 39 test vector), for its signer only; the gateway knows its
 * litecoin account by the descriptor (decision 083), at the testnet coin type as regtest wallets use.
 */
const MERCHANT_WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const TEST_CHAIN = { private: 0x04358394, public: 0x043587cf };
const MERCHANT_DESCRIPTOR = `wpkh([73c5da0a/84h/1h/0h]${
  HDKey.fromMasterSeed(mnemonicToSeedSync(MERCHANT_WORDS), TEST_CHAIN).derive("m/84'/1'/0'").publicExtendedKey
}/0/*)`;
/** The gateway's own litecoin key, for merchants without one: a fresh wallet's, never the merchant's. */
const litecoin = litecoindNetwork({
  xpub: HDKey.fromMasterSeed(randomBytes(32), TEST_CHAIN).derive("m/84'/1'/0'/0").publicExtendedKey,
  confirmations: 1,
  txindex: false,
});

let node: EvmNode;
let ltc: Litecoind;
let rippled: FakeRippled;
let tron: FakeTronNode;
let gw: OwnGateway;
/** The merchant's dashboard, signed in as its owner in live mode, shared by the refund tests. */
let dashboard: BrowserContext | undefined;
let payer: Address;
let usdt: Address;

test.describe.configure({ mode: 'serial' });
test.skip(evmNodeMissing !== undefined, evmNodeMissing);
test.setTimeout(180_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  node = await startEvmNode();
  payer = node.accounts[0]!;
  usdt = await deployToken(node, payer, 'USDT', 6);
  await sendToken(node, usdt, payer, 'mint', payer, 1_000_000_000n);
  await node.mine();
  rippled = await startFakeRippled();
  tron = await startFakeTronNode();
  tron.mine(5);
  ltc = await litecoin.start();
  // RIPPLE_UNTAGGED_MERCHANT must name a merchant that exists: this gateway's own, made at a first start.
  gw = await startOwnGateway(
    'pay-wallet',
    (merchantId) => ({
      ...litecoin.env(ltc),
      // Invoices in live mode priced offline: the fixed table (1 LTC = 80 USD).
      RATE_SOURCES_LIVE: 'fixed',
      ETHEREUM_RPC_URL: node.url,
      // The deposit addresses' watch-only key: a fresh wallet's m/44'/60'/0'/0.
      ETHEREUM_XPUB: HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'/0").publicExtendedKey,
      ETHEREUM_CHAIN_ID: String(CHAIN_ID),
      ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
      ETHEREUM_TOKENS: `USDT:${usdt}`,
      ETHEREUM_HEAD_LAG: '0',
      RIPPLE_RPC_URL: rippled.url,
      RIPPLE_ADDRESS: XRP_ACCOUNT,
      RIPPLE_UNTAGGED_MERCHANT: merchantId,
      TRON_RPC_URL: tron.url,
      TRON_XPUB: HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/195'/0'/0").publicExtendedKey,
      TRON_CONFIRMATIONS: String(CONFIRMATIONS),
      TRON_TOKENS: 'none',
      TRON_HEAD_LAG: '0',
      WATCH_INTERVAL_MS: '250',
    }),
    'live',
  );
});

test.afterAll(async () => {
  await dashboard?.close();
  await gw?.stop();
  await node?.close();
  await rippled?.close();
  await tron?.close();
  await ltc?.stop();
});

interface WalletOptions {
  /** The chains the wallet knows; switching to another one fails with 4902. */
  knownChains?: string[];
  /** Decline `eth_requestAccounts` (4001), as a shopper pressing "Cancel" in the wallet. */
  refuse?: boolean;
  /** The wallet's account (the node holds it unlocked); the payer's unless said. */
  account?: Address;
}

/** Gives the page an injected wallet on `payer`; returns the JSON-RPC calls it made, in order. */
async function injectWallet(page: Page, options: WalletOptions = {}): Promise<{ method: string; params: unknown[] }[]> {
  const calls: { method: string; params: unknown[] }[] = [];
  await page.exposeFunction('__relayToNode', async (method: string, params: unknown[]) => {
    calls.push({ method, params });
    try {
      return { result: await node.client.request({ method, params } as never) };
    } catch (error) {
      const { code = -32603, message = String(error) } = error as { code?: number; message?: string };
      return { error: { code, message } };
    }
  });
  await page.addInitScript(
    ({ account, knownChains, refuse }) => {
      const relay = (
        window as unknown as {
          __relayToNode(
            method: string,
            params: unknown[],
          ): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
        }
      ).__relayToNode;
      const fail = (code: number, message: string) => Object.assign(new Error(message), { code });
      let chain = '0x1';
      (window as unknown as { ethereum: unknown }).ethereum = {
        async request({ method, params = [] }: { method: string; params?: unknown[] }) {
          switch (method) {
            case 'eth_requestAccounts':
              if (refuse) throw fail(4001, 'User rejected the request.');
              return [account];
            case 'eth_accounts':
              return [account];
            case 'eth_chainId':
              return chain;
            case 'wallet_switchEthereumChain': {
              const wanted = (params[0] as { chainId: string }).chainId;
              if (!knownChains.includes(wanted)) throw fail(4902, `Unrecognized chain ID "${wanted}".`);
              chain = wanted;
              return null;
            }
            default: {
              if (chain !== knownChains.at(-1)) throw fail(-32603, 'test wallet: only the node chain can send');
              const answer = await relay(method, params);
              if (answer.error) throw fail(answer.error.code, answer.error.message);
              return answer.result;
            }
          }
        },
      };
    },
    {
      account: options.account ?? payer,
      knownChains: options.knownChains ?? ['0x1', NODE_CHAIN],
      refuse: options.refuse ?? false,
    },
  );
  return calls;
}

interface AnnouncingWallet {
  uuid: string;
  name: string;
  icon: string;
  account: Address;
}

/**
 * Gives the page wallets that announce themselves the EIP-6963 way (on load and on every
 * `eip6963:requestProvider`), each on its own account, plus a `window.ethereum` of its own, as a
 * browser with several extensions has; each wallet records every method it is asked. Returns a
 * reader of those records, keyed by wallet name ('window.ethereum' for the latter).
 */
async function injectAnnouncedWallets(
  page: Page,
  wallets: AnnouncingWallet[],
): Promise<() => Promise<Record<string, string[]>>> {
  await page.exposeFunction('__relayAnnounced', async (method: string, params: unknown[]) => {
    try {
      return { result: await node.client.request({ method, params } as never) };
    } catch (error) {
      const { code = -32603, message = String(error) } = error as { code?: number; message?: string };
      return { error: { code, message } };
    }
  });
  await page.addInitScript(
    ({ wallets, nodeChain }) => {
      const relay = (
        window as unknown as {
          __relayAnnounced(
            method: string,
            params: unknown[],
          ): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
        }
      ).__relayAnnounced;
      const calls: Record<string, string[]> = {};
      (window as unknown as { __walletCalls: unknown }).__walletCalls = calls;
      const fail = (code: number, message: string) => Object.assign(new Error(message), { code });
      const provider = (name: string, account: string) => {
        calls[name] = [];
        let chain = '0x1';
        return {
          async request({ method, params = [] }: { method: string; params?: unknown[] }) {
            calls[name]!.push(method);
            switch (method) {
              case 'eth_requestAccounts':
              case 'eth_accounts':
                return [account];
              case 'eth_chainId':
                return chain;
              case 'wallet_switchEthereumChain':
                chain = (params[0] as { chainId: string }).chainId;
                return null;
              default: {
                if (chain !== nodeChain) throw fail(-32603, 'test wallet: only the node chain can send');
                const answer = await relay(method, params);
                if (answer.error) throw fail(answer.error.code, answer.error.message);
                return answer.result;
              }
            }
          },
        };
      };
      const details = wallets.map(({ uuid, name, icon, account }) =>
        Object.freeze({ info: { uuid, name, icon, rdns: `test.wallet.${uuid}` }, provider: provider(name, account) }),
      );
      (window as unknown as { ethereum: unknown }).ethereum = provider('window.ethereum', wallets[0]!.account);
      const announce = () => {
        for (const detail of details) window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
      };
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
    },
    { wallets, nodeChain: NODE_CHAIN },
  );
  return () => page.evaluate(() => (window as unknown as { __walletCalls: Record<string, string[]> }).__walletCalls);
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const payButton = (page: Page) => page.getByRole('button', { name: 'Pay with wallet' });

/** Presses the button; waits for the wallet's transaction id on the page and returns it. */
async function payFromWallet(page: Page, button: Locator = payButton(page)): Promise<Hex> {
  await button.click();
  const status = page.getByTestId('wallet-status');
  // The id between Unicode isolates (LRI, PDI): left to right inside any language.
  await expect(status).toHaveText(/^Sent from your wallet\. .* Transaction: \u20660x[0-9a-f]{64}\u2069$/);
  return /0x[0-9a-f]{64}/.exec((await status.textContent())!)![0] as Hex;
}

/** Mines the confirmations; the watcher completes the order and the page says so without a reload. */
async function confirmAndSeePaid(page: Page, orderId: string): Promise<void> {
  await node.mine(CONFIRMATIONS);
  await expect(heading(page)).toHaveText('Paid', { timeout: 60_000 });
  expect((await gw.status(orderId)).status).toBe('processed');
}

test('ETH: the wallet switches to the order chain and sends the exact wei; the watcher completes the order', async ({
  page,
}) => {
  const calls = await injectWallet(page);
  const order = await gw.makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.0123456789' });
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  await expect(heading(page)).toHaveText('Awaiting payment');
  // The button sits beside the QR code and the address, which stay.
  await expect(page.getByTestId('qr')).toBeVisible();
  await expect(page.getByTestId('address')).toBeVisible();

  const txHash = await payFromWallet(page);
  const sent = await node.client.getTransaction({ hash: txHash });
  expect(sent).toMatchObject({
    from: payer.toLowerCase(),
    to: order.address.toLowerCase(),
    value: 12_345_678_900_000_000n,
    input: '0x',
  });
  expect(calls.map((c) => c.method)).toEqual(['eth_sendTransaction']);
  await confirmAndSeePaid(page, order.orderId);
});

test('ERC-20: the wallet calls transfer(order address, units) on the configured token; the order completes', async ({
  page,
}) => {
  await injectWallet(page);
  const order = await gw.makeOrder({ currency: 'USDT', network: 'ethereum', amount: '12.5' });
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  const txHash = await payFromWallet(page);
  const sent = await node.client.getTransaction({ hash: txHash });
  expect(sent).toMatchObject({ to: usdt.toLowerCase(), value: 0n });
  // transfer(address,uint256): selector, the order's address and 12.5 USDT in 6-decimal units.
  expect(sent.input).toBe(
    `0xa9059cbb${order.address.slice(2).toLowerCase().padStart(64, '0')}${(12_500_000).toString(16).padStart(64, '0')}`,
  );
  await confirmAndSeePaid(page, order.orderId);
});

const ALPHA_ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="#e2761b"/></svg>')}`;

test('EIP-6963: each announced wallet by its name and icon; the chosen one pays, the others are asked nothing', async ({
  page,
}) => {
  const chosen = node.accounts[1]!;
  const asked = await injectAnnouncedWallets(page, [
    { uuid: '6f6b3c2e-0d1a-4c55-9a8e-1f0e2a3b4c5d', name: 'Alpha Wallet', icon: ALPHA_ICON, account: payer },
    // An icon that is a URL, not a data: image: the wallet is offered by its name alone.
    {
      uuid: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
      name: 'Beta Wallet',
      icon: 'https://wallet.invalid/beta.png',
      account: chosen,
    },
  ]);
  const order = await gw.makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.02' });
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);

  const wallets = page.getByRole('group', { name: 'Pay with wallet' });
  await expect(wallets.getByRole('button')).toHaveText(['Alpha Wallet', 'Beta Wallet']);
  await expect(wallets.getByRole('button', { name: 'Alpha Wallet' }).locator('img')).toHaveAttribute('src', ALPHA_ICON);
  await expect(wallets.getByRole('button', { name: 'Beta Wallet' }).locator('img')).toHaveCount(0);
  // Asked again, the wallets announce themselves again: still one button each. A wallet that loads
  // later announces itself unasked, and joins them (its events come after the others').
  await page.evaluate(() => {
    const calls = (window as unknown as { __walletCalls: Record<string, string[]> }).__walletCalls;
    calls['Gamma Wallet'] = [];
    const provider = { request: async ({ method }: { method: string }) => void calls['Gamma Wallet']!.push(method) };
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    const info = { uuid: 'c0ffee00-0000-4000-8000-000000000003', name: 'Gamma Wallet', icon: '', rdns: 'test.gamma' };
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info, provider } }));
  });
  await expect(wallets.getByRole('button')).toHaveText(['Alpha Wallet', 'Beta Wallet', 'Gamma Wallet']);
  // Announced wallets replace the `window.ethereum` button: the shopper chooses by name.
  await expect(payButton(page)).toHaveCount(0);
  // The buttons with their icons: axe-clean in light and dark, at a phone's width.
  await page.setViewportSize(PHONE);
  await expectAccessible(page, 'two announced wallets');
  await expectNoHorizontalScroll(page);

  const txHash = await payFromWallet(page, wallets.getByRole('button', { name: 'Beta Wallet' }));
  expect(await node.client.getTransaction({ hash: txHash })).toMatchObject({
    from: chosen.toLowerCase(),
    to: order.address.toLowerCase(),
    value: 20_000_000_000_000_000n,
  });
  expect(await asked()).toEqual({
    'Alpha Wallet': [],
    'Gamma Wallet': [],
    'Beta Wallet': [
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'eth_chainId',
      'eth_sendTransaction',
    ],
    'window.ethereum': [],
  });
  await confirmAndSeePaid(page, order.orderId);
});

test('declined in the wallet, or a wallet without the chain: a clear message, nothing sent, the QR stays', async ({
  page,
}) => {
  const order = await gw.makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.5' });
  const refusing = await injectWallet(page, { refuse: true });
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  await payButton(page).click();
  await expect(page.getByTestId('wallet-status')).toHaveText(
    'The request was declined in your wallet. Nothing was sent.',
  );
  await expect(payButton(page)).toBeEnabled();
  await expect(page.getByTestId('qr')).toBeVisible();
  expect(refusing).toEqual([]);

  const other = await page.context().newPage();
  const mainnetOnly = await injectWallet(other, { knownChains: ['0x1'] });
  await other.goto(`${gw.baseUrl}/pay/${order.orderId}?lang=es`);
  await other.getByRole('button', { name: 'Pagar con billetera' }).click();
  await expect(other.getByTestId('wallet-status')).toHaveText(
    // The network's name and the chain id are isolated from the sentence (FSI ... PDI).
    `Tu billetera no conoce \u2068Ethereum\u2069 (ID de cadena \u2068${CHAIN_ID}\u2069). Agrega esta red a tu billetera, o paga con el código QR o la dirección.`,
  );
  expect(mainnetOnly).toEqual([]);
  expect((await gw.status(order.orderId)).status).toBe('pending');
});

/** Hydrated: React has taken over the page's markup (its fibers are on the elements), so the button's effect has run. */
async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Object.keys(document.querySelector('[data-testid="address"]') ?? {}).some((key) => key.startsWith('__reactFiber')),
  );
}

test('no injected wallet: no button, the QR code and the address as before', async ({ page }) => {
  const order = await gw.makeOrder({ currency: 'USDT', network: 'ethereum', amount: '1' });
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  await waitForHydration(page);
  await expect(page.getByTestId('qr')).toBeVisible();
  await expect(page.getByTestId('address')).toBeVisible();
  await expect(payButton(page)).toHaveCount(0);
});

test('a test-mode order gets no button even with a wallet: its address is on the sandbox ledger, not on chain 1', async ({
  page,
}) => {
  await injectWallet(page);
  // The run's shared gateway, with its test-mode key.
  const order = await makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.01' });
  await page.goto(`/pay/${order.orderId}`);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Simulate payment' })).toBeVisible();
  await expect(payButton(page)).toHaveCount(0);
});

/** The owner's dashboard page in live mode (signed in once for the spec). */
async function ownerPage(browser: Browser): Promise<Page> {
  if (!dashboard) {
    const owner = await createUser({ merchant: 'e2e-pay-wallet', dataDir: gw.dataDir });
    dashboard = await browser.newContext();
    const page = await dashboard.newPage();
    await page.goto(`${gw.baseUrl}/dashboard/sign-in`);
    await page.getByLabel('E-mail address').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/dashboard/sign-in'), { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Switch to live' }).click();
    await expect(page.getByTestId('mode')).toHaveText('live data');
    await page.close();
  }
  return dashboard.newPage();
}

/**
 * "Refund" on the order page for `amount` of its coin, and the payer confirming `address` (and
 * `tag`) on the claim page. `form` fills the rest of the refund form first (a price in fiat, the fee).
 */
async function refundClaimed(
  admin: Page,
  orderId: string,
  amount: string,
  address: string,
  { tag, form }: { tag?: string; form?: () => Promise<void> } = {},
) {
  await admin.goto(`${gw.baseUrl}/dashboard/orders/${orderId}`);
  if (form) await form();
  else await admin.getByLabel(/^Refund amount/).fill(amount);
  await admin.getByRole('button', { name: 'Refund', exact: true }).click();
  await admin.waitForURL(/refund=made/);
  // The claim link, shown once for the merchant to share (no payer e-mail on these orders).
  const claim = /\/refund\/[A-Za-z0-9_-]{43}/.exec((await admin.locator('body').textContent())!)![0];
  const payerPage = await admin.context().newPage();
  await payerPage.goto(`${gw.baseUrl}${claim}`);
  await expect(payerPage.getByTestId('refund-amount')).toContainText(amount);
  await payerPage.getByLabel(/^Your .* address/).fill(address);
  if (tag) await payerPage.getByLabel(/^Destination tag/).fill(tag);
  await payerPage.getByRole('button', { name: 'Review' }).click();
  await payerPage.getByRole('button', { name: 'Confirm and receive the refund here' }).click();
  await expect(
    payerPage.getByRole('heading', { name: 'Address confirmed: the refund will be sent to it.' }),
  ).toBeVisible();
  await payerPage.close();
}

test('a partial ETH refund by "Send with wallet" on the order page: the exact wei to the claimed address, recorded once in a block; the order stays processed', async ({
  browser,
}) => {
  const [treasury, refundTo] = [node.accounts[1]!, node.accounts[2]!];
  const order = await gw.makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.05' });
  await node.client.wallet.sendTransaction({
    account: payer,
    chain: null,
    to: order.address as Address,
    value: 50_000_000_000_000_000n,
  });
  await node.mine(CONFIRMATIONS);
  await expect.poll(async () => (await gw.status(order.orderId)).status, { timeout: 60_000 }).toBe('processed');

  const admin = await ownerPage(browser);
  const calls = await injectWallet(admin, { account: treasury });
  // Part of what arrived, in the coin; the payer confirms where it goes.
  await refundClaimed(admin, order.orderId, '0.02', refundTo);
  expect((await gw.status(order.orderId)).status).toBe('processed');

  await admin.goto(`${gw.baseUrl}/dashboard/orders/${order.orderId}`);
  await expect(admin.getByRole('button', { name: 'Send with wallet' })).toBeVisible();
  await expectAccessible(admin, 'order page, a ready refund with "Send with wallet"');
  await admin.setViewportSize(PHONE);
  await expectNoHorizontalScroll(admin);
  await admin.getByRole('button', { name: 'Send with wallet' }).click();
  const status = admin.getByTestId('refund-wallet-status');
  await expect(status).toContainText('Waiting for it to be in a block');
  const txHash = /0x[0-9a-f]{64}/.exec((await status.textContent())!)![0] as Hex;
  // Written into "Sent by hand" too: pressing Complete later records the same transaction.
  await expect(admin.getByLabel('Sent by hand: transaction id')).toHaveValue(txHash);
  expect(await node.client.getTransaction({ hash: txHash })).toMatchObject({
    from: treasury.toLowerCase(),
    to: refundTo.toLowerCase(),
    value: 20_000_000_000_000_000n,
    input: '0x',
  });
  expect(calls.map((c) => c.method)).toEqual(['eth_sendTransaction']);

  // In a block: the button records it (verified on chain), the refund is sent; with the
  // confirmations, the watcher's re-check makes it confirmed. The order never moves.
  await node.mine(1);
  await admin.waitForURL(/refund=completed/, { timeout: 30_000 });
  await expect(admin.getByText('Transaction verified on chain: the refund is sent, or confirmed.')).toBeVisible();
  const refunds = admin.getByRole('table', { name: 'Refunds of this order' });
  await expect(refunds).toContainText(txHash);
  await expect(refunds).toContainText('sent');
  expect((await gw.status(order.orderId)).status).toBe('processed');
  await node.mine(CONFIRMATIONS);
  await expect
    .poll(
      async () => {
        await admin.reload();
        return refunds.textContent();
      },
      { timeout: 60_000 },
    )
    .toContain('confirmed');
  expect((await gw.status(order.orderId)).status).toBe('processed');
  await admin.close();
});

test('an XRP refund to a destination tag on the fake rippled: sent by hand, refused without the tag, completed with it; the order stays processed', async ({
  browser,
}) => {
  const order = await gw.makeOrder({ currency: 'XRP', network: 'ripple', amount: '25' });
  rippled.pay({ to: XRP_ACCOUNT, tag: Number(order.tag), delivered: '25000000' });
  rippled.closeLedger();
  await expect.poll(async () => (await gw.status(order.orderId)).status, { timeout: 60_000 }).toBe('processed');

  const admin = await ownerPage(browser);
  await refundClaimed(admin, order.orderId, '10', XRP_PAYER, { tag: '77' });
  // The merchant's own wallet pays it: once without the tag (an exchange would lose it), once with.
  const untagged = rippled.pay({ from: XRP_ACCOUNT, to: XRP_PAYER, delivered: '10000000' });
  const tagged = rippled.pay({ from: XRP_ACCOUNT, to: XRP_PAYER, tag: 77, delivered: '10000000' });
  rippled.closeLedger();

  const complete = async (txId: string) => {
    await admin.goto(`${gw.baseUrl}/dashboard/orders/${order.orderId}`);
    // No browser wallet sends XRP: the transaction id is typed.
    await expect(admin.getByRole('button', { name: /^Send with/ })).toHaveCount(0);
    await admin.getByLabel('Sent by hand: transaction id').fill(txId);
    await admin.getByRole('button', { name: 'Complete' }).click();
  };
  await complete(untagged);
  await admin.waitForURL(/refund=transaction/);
  await expect(admin.getByText(/does not complete the refund: .*without its destination tag 77/)).toBeVisible();
  expect((await gw.status(order.orderId)).status).toBe('processed');

  await complete(tagged);
  await admin.waitForURL(/refund=completed/);
  const refunds = admin.getByRole('table', { name: 'Refunds of this order' });
  await expect(refunds).toContainText(tagged);
  await expect(refunds).toContainText('confirmed');
  expect((await gw.status(order.orderId)).status).toBe('processed');
  await admin.close();
});

/**
 * Gives the page a minimal TronLink on the treasury's account: `tronLink.request` answers
 * `tron_requestAccounts` as TronLink does (`{code: 200}`, the account then in
 * `tronWeb.defaultAddress`) and `eth_chainId` (TIP-1193) with `chainId`, the fake node's (Tron
 * mainnet's) unless a test puts the wallet elsewhere; `tronWeb` sends TRX (`trx.sendTransaction`) or
 * a token's `contract().at().transfer().send()` by building, signing and broadcasting here
 * (page.exposeFunction).
 */
async function injectTronLink(page: Page, chainId = '0x2b6653dc'): Promise<void> {
  await page.exposeFunction('tronLinkSend', async (to: string, amount: string, token: string | null) => {
    const head = tron.height();
    const now = Date.now();
    const built = buildTransaction(
      { height: head, id: tron.blockId(head), timestamp: now },
      tronRefundContract({ treasury: TRON_TREASURY, destination: to, token, amount: BigInt(amount) }),
      { expiration: now + 12 * 3_600_000, timestamp: now },
      token === null ? 0n : 100_000_000n,
    );
    const signed = encodeSignedTransaction(hexToBytes(built.rawDataHex), [
      signTransactionId(built.txID, TRON_TREASURY_KEY),
    ]);
    const response = await fetch(`${tron.url}/wallet/broadcasthex`, {
      method: 'POST',
      body: JSON.stringify({ transaction: bytesToHex(signed) }),
    });
    const answer = (await response.json()) as { result?: boolean; txid?: string; message?: string };
    if (!answer.result) throw new Error(`broadcast refused: ${Buffer.from(answer.message ?? '', 'hex').toString()}`);
    return answer.txid!;
  });
  await page.addInitScript(
    ({ account, chainId }: { account: string; chainId: string }) => {
      const send = (
        window as unknown as { tronLinkSend: (to: string, amount: string, token: string | null) => Promise<string> }
      ).tronLinkSend;
      const tronWeb = {
        defaultAddress: { base58: false as string | false },
        trx: {
          sendTransaction: async (to: string, amount: number) => ({
            result: true,
            txid: await send(to, String(amount), null),
          }),
        },
        contract: () => ({
          at: async (token: string) => ({
            transfer: (to: string, amount: string) => ({ send: () => send(to, String(amount), token) }),
          }),
        }),
      };
      Object.assign(window, {
        tronWeb,
        tronLink: {
          ready: true,
          tronWeb,
          request: async ({ method }: { method: string }) => {
            if (method === 'eth_chainId') return chainId;
            if (method !== 'tron_requestAccounts') throw Object.assign(new Error('Unsupported Method'), { code: 4200 });
            tronWeb.defaultAddress = { base58: account };
            return { code: 200, message: 'The site is already in the whitelist' };
          },
        },
      });
    },
    { account: TRON_TREASURY, chainId },
  );
}

test('a TRX refund by "Send with TronLink" on the fake java-tron: the exact sun from the treasury to the claimed address, recorded once in a block, confirmed by the watcher; the order stays processed', async ({
  browser,
}) => {
  const order = await gw.makeOrder({ currency: 'TRX', network: 'tron', amount: '30' });
  tron.sendTrx(randomTronAccount(), order.address, 30_000_000n);
  tron.mine(CONFIRMATIONS);
  await expect.poll(async () => (await gw.status(order.orderId)).status, { timeout: 60_000 }).toBe('processed');
  tron.fund(TRON_TREASURY, 100_000_000n);
  const refundTo = randomTronAccount();

  const admin = await ownerPage(browser);
  await injectTronLink(admin);
  await refundClaimed(admin, order.orderId, '12.5', refundTo);

  // A TronLink on Nile is refused before anything is signed: its chain is not the node's (decision 130).
  const onNile = await ownerPage(browser);
  await injectTronLink(onNile, '0xcd8690dc');
  await onNile.goto(`${gw.baseUrl}/dashboard/orders/${order.orderId}`);
  const broadcasts = tron.broadcasts.size;
  await onNile.getByRole('button', { name: 'Send with TronLink' }).click();
  await expect(onNile.getByTestId('refund-wallet-status')).toHaveText(
    'TronLink is on another network (chain 0xcd8690dc): switch it to Tron mainnet and try again. Nothing was sent.',
  );
  await expect(onNile.getByLabel('Sent by hand: transaction id')).toHaveValue('');
  expect(tron.broadcasts.size).toBe(broadcasts);
  await onNile.close();

  await admin.goto(`${gw.baseUrl}/dashboard/orders/${order.orderId}`);
  await admin.getByRole('button', { name: 'Send with TronLink' }).click();
  const status = admin.getByTestId('refund-wallet-status');
  await expect(status).toContainText('Waiting for it to be in a block');
  // On the node's chain (TIP-1193 eth_chainId against the node's genesis block): checked, no warning.
  await expect(status).not.toContainText('not checked');
  const txId = /[0-9a-f]{64}/.exec((await status.textContent())!)![0];
  await expect(admin.getByLabel('Sent by hand: transaction id')).toHaveValue(txId);
  expect(tron.broadcasts.get(txId)).toMatchObject({ contract: 'TransferContract', result: 'SUCCESS' });

  // In a block: recorded (verified on chain by the Tron adapter), then confirmed by the watcher.
  tron.mine(1);
  await admin.waitForURL(/refund=completed/, { timeout: 30_000 });
  const refunds = admin.getByRole('table', { name: 'Refunds of this order' });
  await expect(refunds).toContainText(txId);
  expect(tron.account(refundTo)?.balance).toBe(12_500_000n);
  expect((await gw.status(order.orderId)).status).toBe('processed');
  tron.mine(CONFIRMATIONS);
  await expect
    .poll(
      async () => {
        await admin.reload();
        return refunds.textContent();
      },
      { timeout: 60_000 },
    )
    .toContain('confirmed');
  expect((await gw.status(order.orderId)).status).toBe('processed');
  await admin.close();
});

test('a full refund of a fiat invoice paid in LTC on litecoind regtest, at the invoice rate: a plan signed by the signer, confirmed by the watcher; the order stays processed', async ({
  browser,
  page,
}) => {
  // The merchant's deposits are its own seed's; the change of its plans goes to its treasury, an address of the node's wallet.
  const treasury = (await ltc.rpc('getnewaddress', '', 'bech32')) as string;
  await gw.cli('keys', ['deposit-key', 'e2e-pay-wallet', 'litecoin', MERCHANT_DESCRIPTOR, '--mode', 'live']);
  await gw.cli('collect', ['treasury', 'e2e-pay-wallet', 'litecoin', treasury, '--mode', 'live']);

  // 8 USD, paid in LTC chosen on the invoice page: 0.1 LTC at 80 USD.
  const invoice = await gw.api<Invoice>('make-invoice', {
    externalId: `e2e-ltc-refund-${Date.now()}`,
    currency: 'USD',
    amount: '8',
    lifetime: 30,
  });
  await page.goto(invoice.invoiceLink);
  await page
    .getByRole('region', { name: /^LTC\b/ })
    .getByRole('button', { name: /^Litecoin\b/ })
    .click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}(\?|$)/);
  const orderId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByTestId('amount')).toHaveText('0.1 LTC');
  const address = (await page.getByTestId('address').textContent())!.trim();
  await ltc.rpc('sendtoaddress', address, '0.1');
  await ltc.mine(1);
  await expect(heading(page)).toHaveText('Paid', { timeout: 60_000 });
  expect((await gw.status(orderId)).status).toBe('processed');

  // In full, in the invoice's fiat at the invoice's rate, the three rates side by side; the payer
  // bears the fee (the payment's one output pays the whole refund).
  const admin = await ownerPage(browser);
  const payerAddress = (await ltc.rpc('getnewaddress', '', 'bech32')) as string;
  await refundClaimed(admin, orderId, '0.1', payerAddress, {
    form: async () => {
      const rates = admin.getByRole('group', { name: 'The amount is in' });
      await expect(rates).toContainText(/The invoice's rate\s*80 USD/);
      await expect(rates).toContainText(/The current rate\s*80 USD/);
      await expect(rates).toContainText('Your own rate (USD)');
      await admin.getByLabel(/^Refund amount/).fill('8');
      await admin.getByLabel(/^USD, converted at the rate chosen here/).check();
      await expect(admin.getByRole('radio', { name: /^The invoice's rate/ })).toBeChecked();
      await admin.getByLabel(/^Take the network fee from the refund/).check();
    },
  });
  expect((await gw.status(orderId)).status).toBe('processed');

  // The plan: a fee rate given, as a regtest node has no estimate; its file downloaded as the merchant does.
  await admin.goto(`${gw.baseUrl}/dashboard/orders/${orderId}`);
  await admin.getByLabel(/^Fee rate per vbyte/).fill('2');
  await admin.getByRole('button', { name: 'Prepare plan' }).click();
  await admin.waitForURL(/\/dashboard\/funds\/plans\/[0-9a-f-]{36}\?notice=prepared/);
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText('Refund plan');
  const [download] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('link', { name: /^plan-.*\.json$/ }).click(),
  ]);
  const planText = fs.readFileSync(await download.path(), 'utf8');
  const plan = refundPlanSchema.parse(JSON.parse(planText));
  expect(plan.refund).toMatchObject({ amount: '0.1', destination: payerAddress });

  // Signed by the signer's own functions, its checks against its own node included, as `npm run signer` signs.
  const ltcNode = { url: ltc.url, user: ltc.user, password: ltc.password };
  let shown = '';
  const { signed, ledgerEntry } = await signPlan(
    planText,
    signerConfigSchema.parse({
      network: 'litecoin',
      chain: 'regtest',
      treasury,
      maxFee: '0.001',
      node: ltcNode,
      refundDailyCap: '1',
    }),
    rootOfPhrase(MERCHANT_WORDS),
    {
      confirm: async (summary) => ((shown = summary), true),
      unspent: nodeUnspentCheck(ltcNode),
      inChain: nodeInChainCheck(ltcNode),
      ledger: { refunds: [] },
    },
  );
  expect(shown).toContain(`REFUND ${plan.refund.refundId} of invoice ${invoice.id} (order ${orderId})`);
  expect(shown).toContain(`pays ${plan.refund.pays} LTC to ${payerAddress}, the address the payer confirmed`);
  expect(shown).toContain('the refund is 0.1 LTC, the network fee taken from it');
  expect(shown).toContain('its payment paid your seed 0.1 LTC');
  expect(signed.txid).toBe(plan.txid);
  expect(ledgerEntry).toMatchObject({ refundId: plan.refund.refundId, destination: payerAddress });

  // Broadcast from the merchant's own node, as docs/refunds.md says; mined, the watcher confirms it.
  await ltc.rpc('sendrawtransaction', signed.rawTx);
  expect((await gw.status(orderId)).status).toBe('processed');
  await ltc.mine(1);
  // The refund's State cell, read afresh until the refund (not only its plan) is confirmed.
  const state = admin
    .getByRole('table', { name: 'Refunds of this order' })
    .getByRole('row')
    .nth(1)
    .getByRole('cell')
    .nth(2);
  await expect
    .poll(
      async () => {
        await admin.goto(`${gw.baseUrl}/dashboard/orders/${orderId}`);
        return state.textContent();
      },
      { timeout: 60_000 },
    )
    .toMatch(/^confirmed/);
  await expect(state).toContainText(`tx ${signed.txid}`);
  await expect(state).toContainText('plan: confirmed');
  expect(await ltc.rpc('getreceivedbyaddress', payerAddress, 1)).toBe(Number(plan.refund.pays));
  expect((await gw.status(orderId)).status).toBe('processed');
  await admin.close();
});
