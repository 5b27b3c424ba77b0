/**
 * "Pay with wallet" for Solana through the Wallet Standard (issue 44 item 5, decision 062), against
 * the real Solana runtime: the litesvm facade of the live Solana tests (tests/support/solana-facade.ts,
 * JSON-RPC on 127.0.0.1, the real SPL Token program running every transfer) is the gateway's live
 * `solana` network, whose receiving wallet has its USDC account; the gateway is one of this spec's
 * own with a live key, so its orders are paid on the facade and completed by the normal watcher.
 *
 * No wallet extension runs in headless Chromium, so the page gets a small Wallet Standard wallet
 * (page.addInitScript), as Phantom or Solflare register themselves: it dispatches
 * `wallet-standard:register-wallet` and answers the page's `wallet-standard:app-ready`, offers
 * `standard:connect` (the facade payer's account) and `solana:signAndSendTransaction`, which
 * relays the transaction to this process (page.exposeFunction): it is signed there with the
 * payer's key and sent to the facade's `sendTransaction`, as a wallet sends through its own node.
 */
import type { Page } from '@playwright/test';
import {
  getAddressEncoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  signTransaction,
} from '@solana/kit';
import {
  litesvmMissing,
  startSolanaChain,
  tokenTransfer,
  transaction,
  USDC_MINT,
  type SolanaChain,
} from '../tests/support/solana-facade';
import {
  decodeQr,
  expectAccessible,
  expectNoHorizontalScroll,
  PHONE,
  startOwnGateway,
  type OwnGateway,
} from './pay-support';
import { expect, test } from './support/fixtures';

let chain: SolanaChain;
let gw: OwnGateway;

test.describe.configure({ mode: 'serial' });
test.skip(litesvmMissing !== undefined, litesvmMissing);
test.setTimeout(120_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  chain = await startSolanaChain();
  gw = await startOwnGateway(
    'pay-wallet-solana',
    (merchantId) => ({
      SOLANA_RPC_URL: chain.nodes.map((node) => node.url).join(','),
      SOLANA_ADDRESS: chain.wallet,
      // Payments under no order's reference go to the spec's own merchant.
      SOLANA_UNTAGGED_MERCHANT: merchantId,
      SOLANA_TOKENS: `USDC:${USDC_MINT},USDT:${chain.feeMint}`,
      WATCH_INTERVAL_MS: '250',
    }),
    'live',
  );
});

test.afterAll(async () => {
  await gw?.stop();
  await chain?.close();
});

const ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="#ab9ff2"/></svg>')}`;

interface Relayed {
  chain: string;
  account: string;
  signature: string;
}

/**
 * Gives the page a Wallet Standard wallet on the facade's payer ("Test Solana"), and one that
 * knows only devnet (not offered); returns what the first relayed, in order.
 */
async function injectStandardWallet(page: Page): Promise<Relayed[]> {
  const relayed: Relayed[] = [];
  await page.exposeFunction('__signAndSendOnFacade', async (bytes: number[], chainId: string, account: string) => {
    const unsigned = getTransactionDecoder().decode(new Uint8Array(bytes));
    const signed = await signTransaction([chain.payer.keyPair], unsigned);
    const response = await fetch(chain.nodes[0].url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'sendTransaction',
        params: [getBase64EncodedWireTransaction(signed), { encoding: 'base64' }],
      }),
    });
    const answer = (await response.json()) as { result?: string; error?: { message: string } };
    if (!answer.result) throw new Error(`facade: ${answer.error?.message}`);
    relayed.push({ chain: chainId, account, signature: answer.result });
    return [...getBase58Encoder().encode(answer.result)];
  });
  await page.addInitScript(
    ({ address, publicKey, icon }) => {
      const relay = (
        window as unknown as { __signAndSendOnFacade(b: number[], c: string, a: string): Promise<number[]> }
      ).__signAndSendOnFacade;
      const wallet = (name: string, chains: string[]) => {
        const account = Object.freeze({
          address,
          publicKey: new Uint8Array(publicKey),
          chains,
          features: ['solana:signAndSendTransaction'],
        });
        return Object.freeze({
          version: '1.0.0',
          name,
          icon,
          chains,
          accounts: [],
          features: {
            'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [account] }) },
            'solana:signAndSendTransaction': {
              version: '1.0.0',
              supportedTransactionVersions: ['legacy', 0],
              signAndSendTransaction: async (
                ...inputs: { transaction: Uint8Array; chain: string; account: { address: string } }[]
              ) =>
                Promise.all(
                  inputs.map(async (input) => ({
                    signature: new Uint8Array(await relay([...input.transaction], input.chain, input.account.address)),
                  })),
                ),
            },
          },
        });
      };
      // As @wallet-standard/wallet's registerWallet: announce now, and answer the page's app-ready.
      for (const registering of [wallet('Test Solana', ['solana:mainnet']), wallet('Devnet Only', ['solana:devnet'])]) {
        const callback = ({ register }: { register(w: unknown): unknown }) => register(registering);
        window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
        window.addEventListener('wallet-standard:app-ready', (event) =>
          callback((event as CustomEvent<{ register(w: unknown): unknown }>).detail),
        );
      }
    },
    { address: chain.payer.address, publicKey: [...getAddressEncoder().encode(chain.payer.address)], icon: ICON },
  );
  return relayed;
}

test('a Wallet Standard wallet pays a USDC order: the exact transfer with the reference, processed by the watcher', async ({
  page,
}) => {
  const relayed = await injectStandardWallet(page);
  const order = await gw.makeOrder({ currency: 'USDC', network: 'solana', amount: '12.5' });
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Awaiting payment');

  const wallets = page.getByRole('group', { name: 'Pay with wallet' });
  // The wallet that knows only devnet cannot pay a mainnet order: not offered.
  await expect(wallets.getByRole('button')).toHaveText(['Test Solana']);
  await expect(wallets.getByRole('button', { name: 'Test Solana' }).locator('img')).toHaveAttribute('src', ICON);
  // A wallet that loads later registers itself unasked, and joins; the same wallet twice is one button.
  await page.evaluate(() => {
    const late = {
      name: 'Late Wallet',
      icon: 'https://wallet.invalid/icon.png',
      chains: ['solana:mainnet'],
      accounts: [],
      features: {
        'standard:connect': { connect: async () => ({ accounts: [] }) },
        'solana:signAndSendTransaction': { signAndSendTransaction: async () => [] },
      },
    };
    for (let i = 0; i < 2; i++)
      window.dispatchEvent(
        new CustomEvent('wallet-standard:register-wallet', {
          detail: ({ register }: { register(w: unknown): unknown }) => register(late),
        }),
      );
  });
  await expect(wallets.getByRole('button')).toHaveText(['Test Solana', 'Late Wallet']);
  await expect(wallets.getByRole('button', { name: 'Late Wallet' }).locator('img')).toHaveCount(0);
  await page.setViewportSize(PHONE);
  await expectAccessible(page, 'a Solana wallet');
  await expectNoHorizontalScroll(page);

  await wallets.getByRole('button', { name: 'Test Solana' }).click();
  const status = page.getByTestId('wallet-status');
  // The signature, base58, between Unicode isolates (LRI, PDI): left to right inside any language.
  await expect(status).toHaveText(/^Sent from your wallet\. .* Transaction: \u2066[1-9A-HJ-NP-Za-km-z]{64,88}\u2069$/);
  expect(relayed).toHaveLength(1);
  const [sent] = relayed as [Relayed];
  expect(sent).toMatchObject({ chain: 'solana:mainnet', account: chain.payer.address });
  expect(await status.textContent()).toContain(sent.signature);

  // What ran on chain: a TransferChecked of 12.5 USDC carrying the order's reference, which succeeded.
  const recorded = chain.ledger.transactions.get(sent.signature)!;
  expect(recorded.err).toBeNull();
  expect(order.address).toBe(chain.wallet);
  expect(recorded.keys).toContain(order.tag);
  const balances = (list: typeof recorded.postTokenBalances) =>
    list.filter((b) => b.owner === chain.wallet && b.mint === USDC_MINT).map((b) => BigInt(b.uiTokenAmount.amount));
  expect(balances(recorded.postTokenBalances)[0]! - balances(recorded.preTokenBalances)[0]!).toBe(12_500_000n);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paid', { timeout: 60_000 });
  expect((await gw.status(order.orderId)).status).toBe('processed');

  // The endpoint's documented refusals (docs/payment-page.md), never a 500: a paid order, an
  // account that is no Solana address (a NUL byte, 80 digits), an unknown order.
  const ask = async (orderId: string, account: string) => {
    const response = await fetch(
      `${gw.baseUrl}/api/pay/${orderId}/solana-transaction?account=${encodeURIComponent(account)}`,
    );
    return [response.status, ((await response.json()) as { error?: string }).error];
  };
  expect(await ask(order.orderId, chain.payer.address)).toEqual([409, 'NOT_PAYABLE']);
  expect(await ask(order.orderId, `${chain.payer.address}\u0000`)).toEqual([400, 'BAD_ACCOUNT']);
  expect(await ask(order.orderId, '9'.repeat(80))).toEqual([400, 'BAD_ACCOUNT']);
  expect(await ask('00000000-0000-4000-8000-000000000000', chain.payer.address)).toEqual([404, 'NOT_FOUND']);
});

test('after a partial payment the page asks for the rest under a fresh reference: its QR, link and wallet button', async ({
  page,
}) => {
  const relayed = await injectStandardWallet(page);
  const order = await gw.makeOrder({ currency: 'USDC', network: 'solana', amount: '10' });
  await page.goto(`${gw.baseUrl}/pay/${order.orderId}`);
  const link = page.getByRole('link', { name: 'Open in wallet' });
  const request = async () => new URL((await link.getAttribute('href'))!).searchParams;
  expect((await request()).get('reference')).toBe(order.tag);

  // 4 USDC under the order's reference from another wallet (a phone that scanned the QR code).
  const partial = await transaction(chain.ledger, chain.payer, [
    await tokenTransfer(chain.payer, chain.wallet, USDC_MINT, 4_000_000n, { reference: order.tag! }),
  ]);
  chain.ledger.send(partial);
  // The reference paid once (decision 096): the block is redrawn for the rest, under a fresh one.
  await expect(page.getByTestId('amount')).toHaveText('6 USDC', { timeout: 60_000 });
  const rest = await request();
  const fresh = rest.get('reference')!;
  expect(fresh).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  expect(fresh).not.toBe(order.tag);
  expect([rest.get('amount'), rest.get('spl-token')]).toEqual(['6', USDC_MINT]);
  expect(await decodeQr(page.getByTestId('qr'))).toBe(await link.getAttribute('href'));

  // The wallet button's transfer is built for the rest, under the fresh reference.
  await page.getByRole('group', { name: 'Pay with wallet' }).getByRole('button', { name: 'Test Solana' }).click();
  await expect(page.getByTestId('wallet-status')).toHaveText(/^Sent from your wallet\./);
  const [sent] = relayed as [Relayed];
  const recorded = chain.ledger.transactions.get(sent.signature)!;
  expect(recorded.err).toBeNull();
  expect(recorded.keys).toContain(fresh);
  expect(recorded.keys).not.toContain(order.tag);
  const balance = (list: typeof recorded.postTokenBalances) =>
    list.find((b) => b.owner === chain.wallet && b.mint === USDC_MINT)!.uiTokenAmount.amount;
  expect(BigInt(balance(recorded.postTokenBalances)) - BigInt(balance(recorded.preTokenBalances))).toBe(6_000_000n);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paid', { timeout: 60_000 });
  expect(await gw.status(order.orderId)).toMatchObject({ status: 'processed', received: '10' });
});
