/**
 * Live mode on Solana: the adapter (lib/chains/solana) over JSON-RPC against a facade over litesvm
 * (tests/support/solana-facade.ts: the real System, SPL Token, Token-2022 and ATA programs run every
 * payment; the facade's header lists what it invents), the real watcher, state machine and
 * database, orders made with a live key. Every order shares the receiving wallet and has its own
 * Solana Pay reference. USDT is configured here as a Token-2022 mint withholding a 1% transfer fee.
 */
import {
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64Encoder,
  lamports,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  signTransaction,
  type Address,
  type Instruction,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { describe, expect, it } from 'vitest';
import { findCurrency } from '@/lib/catalog';
import { liveNetworks, type LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import type { OrderRow } from '@/lib/orders/rows';
import { poolSequence } from '@/lib/addresses';
import { loadPublicView, walletSolanaTransaction } from '@/lib/pay';
import { solanaPrivateKeyOfSeed, solanaWalletOfPrivateKey } from '@/lib/chains/solana/transactions';
import { SignerRefusal } from '@/lib/chains/utxo/transactions';
import { solanaRefundPlanSchema } from '@/lib/protocol';
import { completeRefundByTransaction, confirmClaim, getRefund, makeRefund, planRefund } from '@/lib/refunds';
import { newestRefundPlan, setDepositKey } from '@/lib/payouts';
import { readPlan } from '@/scripts/signer/api';
import { answerRefusals } from '@/scripts/signer/from-api';
import type { RefundLedger } from '@/scripts/signer/refunds';
import { signSolanaRefund } from '@/scripts/signer/sign-solana';
import { signAndSendSolanaRefund, solanaNode, solanaSignerConfigSchema } from '@/scripts/signer/solana';
import { callInProcess, inProcessFetch, useDatabaseForApi } from './support/api-in-process';
import { createOrder, orderRow } from './support/chain';
import { watchLive, withLiveNetwork } from './support/live';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import {
  createTokenAccount,
  litesvmMissing,
  solanaNetwork,
  solTransfer,
  TOKEN_2022_PROGRAM,
  tokenTransfer,
  transaction,
  USDC_MINT,
  type SolanaChain,
} from './support/solana-facade';

let chain: SolanaChain;
let db: Database;
let merchant: TestMerchant;
/** The merchant payments under no order's reference go to (SOLANA_UNTAGGED_MERCHANT). */
let owner: TestMerchant;
let adapter: LiveAdapter;
if (!litesvmMissing)
  withLiveNetwork(
    solanaNetwork({
      untaggedMerchant: async (db) => (owner = await createTestMerchant(db, 'Gateway operator')).merchantId,
    }),
    (live) => ({ node: chain, db, merchant, adapter } = live),
  );

const SOL = { currency: 'SOL', network: 'solana' };
const USDC = { currency: 'USDC', network: 'solana' };
const USDT = { currency: 'USDT', network: 'solana' };

/** Sends one transaction of `instructions` from the payer; answers its signature. */
async function send(...instructions: Instruction[]): Promise<string> {
  return chain.ledger.send(await transaction(chain.ledger, chain.payer, instructions));
}
const usdc = (order: OrderRow, amount: bigint, to: Address = chain.wallet, mint: Address = USDC_MINT) =>
  tokenTransfer(chain.payer, to, mint, amount, { reference: order.tag! });
const usdt = (order: OrderRow, amount: bigint) =>
  tokenTransfer(chain.payer, chain.wallet, chain.feeMint, amount, {
    reference: order.tag!,
    program: TOKEN_2022_PROGRAM,
  });

async function payments(orderId: string) {
  return db.query<{ tx_hash: string; status: string; amount: string; tag: string | null }>(
    'select tx_hash, status, amount, tag from payments where order_id = $1 order by created_at',
    [orderId],
  );
}
const recorded = (txs: string[]) =>
  db.query<{ tx_hash: string }>('select tx_hash from chain_transfers where tx_hash = any($1::text[])', [txs]);

describe.skipIf(litesvmMissing)('live Solana (litesvm facade)', () => {
  it('gives every order the receiving wallet and a fresh 32-byte reference; its wallet URI is a transfer request', async () => {
    expect(liveNetworks().map((n) => n.name)).toEqual(['solana']);
    const a = await createOrder(db, merchant.live, { ...USDC, amount: '1' });
    const b = await createOrder(db, merchant.live, { ...USDC, amount: '1' });
    expect([a.address, b.address]).toEqual([chain.wallet, chain.wallet]);
    expect(a.tag).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(a.tag).not.toBe(b.tag);
  });

  it('an exact USDC payment carrying the reference: processed, the reference kept as its tag', async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '12.5' });
    const tx = await send(await usdc(order, 12_500_000n));
    await watchLive(db, adapter);
    expect(await payments(order.id)).toEqual([
      { tx_hash: tx, status: 'processed', amount: '12500000', tag: order.tag },
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '12500000' });
  });

  it('partial then completed: 4 USDC under the reference, then 6 under the fresh one the order moved to', async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '10' });
    const first = await send(await usdc(order, 4_000_000n));
    await watchLive(db, adapter);
    // The reference paid once (decision 096): the page's request now asks for the rest under a fresh one.
    const moved = await orderRow(db, order.id);
    expect(moved).toMatchObject({ status: 'pending', received: '4000000', address: chain.wallet });
    expect(moved.tag).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(moved.tag).not.toBe(order.tag);
    const second = await send(await usdc(moved, 6_000_000n));
    await watchLive(db, adapter);
    expect((await payments(order.id)).map((p) => [p.tx_hash, p.amount, p.tag])).toEqual([
      [first, '4000000', order.tag],
      [second, '6000000', moved.tag],
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '10000000', tag: moved.tag });
  });

  it("the reference reused, in the pass of its first payment or a later one: the merchant's orphan deposit, never the order's", async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '10' });
    const first = await send(await usdc(order, 4_000_000n));
    const again = await send(await usdc(order, 6_000_000n));
    await watchLive(db, adapter);
    const later = await send(await usdc(order, 6_000_000n));
    await watchLive(db, adapter);
    expect((await payments(order.id)).map((p) => p.tx_hash)).toEqual([first]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '4000000' });
    for (const tx of [again, later])
      expect(
        await db.query('select kind, merchant_id, order_id, tag from deposits where in_tx_hash = $1', [tx]),
      ).toEqual([{ kind: 'ORPHAN', merchant_id: merchant.merchantId, order_id: null, tag: order.tag }]);
  });

  it('SOL overpaid: the balance change is credited, the order processed with what arrived', async () => {
    const order = await createOrder(db, merchant.live, { ...SOL, amount: '0.5' });
    const tx = await send(solTransfer(chain.payer, chain.wallet, 700_000_000n, order.tag!));
    await watchLive(db, adapter);
    expect(await payments(order.id)).toMatchObject([{ tx_hash: tx, amount: '700000000', tag: order.tag }]);
    expect(await orderRow(db, order.id)).toMatchObject({ received: '700000000' });
    expect((await orderRow(db, order.id)).status).not.toBe('pending');
  });

  it('Token-2022 with a transfer fee credits what arrived: 10 USDT sent, 9.9 received, the order still short', async () => {
    expect(findCurrency(adapter.network, 'USDT')?.contract).toBe(chain.feeMint);
    const order = await createOrder(db, merchant.live, { ...USDT, amount: '10' });
    const tx = await send(await usdt(order, 10_000_000n));
    await watchLive(db, adapter);
    expect(await payments(order.id)).toMatchObject([{ tx_hash: tx, amount: '9900000' }]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '9900000' });
  });

  it('a look-alike mint, a failed transaction and the reference in a transfer to someone else credit nothing', async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '3' });
    const someoneElse = (await generateKeyPairSigner()).address;
    const fakes = [
      // The same amount and reference, in a mint of the same decimals that is not USDC's.
      await send(await usdc(order, 3_000_000n, chain.wallet, chain.lookAlikeMint)),
      // Fails in the Token program (more than the payer's balance), so it moved nothing; it is on chain with its error.
      await send(await usdc(order, 10n ** 16n)),
      // Paid to another wallet (which has SOL), carrying the order's reference.
      await send(solTransfer(chain.payer, someoneElse, 3_000_000_000n, order.tag!)),
    ];
    expect(chain.ledger.transactions.get(fakes[1]!)!.err).not.toBeNull();
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
    expect(await recorded(fakes)).toEqual([]);
  });

  it('a configured token other than the order currency (USDT to a USDC order) is no USDC', async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '2' });
    await send(await usdt(order, 2_000_000n));
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
  });

  it('SOL and USDC in one transaction are two transfers, each read once however many passes', async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '1' });
    const tx = await send(await usdc(order, 1_000_000n), solTransfer(chain.payer, chain.wallet, 1_000n));
    await watchLive(db, adapter);
    await watchLive(db, adapter);
    const rows = await db.query<{ currency: string; amount: string }>(
      'select currency, amount::text as amount from chain_transfers where tx_hash = $1 order by currency',
      [tx],
    );
    expect(rows).toEqual([
      { currency: 'SOL', amount: '1000' },
      { currency: 'USDC', amount: '1000000' },
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '1000000' });
  });

  it("the wallet button's transaction: built with the node's blockhash asked once for many pages, it pays the order once signed", async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '1.25' });
    const asked = (method: string) => chain.nodes.reduce((n, node) => n + (node.calls.get(method) ?? 0), 0);
    const before = { blockhash: asked('getLatestBlockhash'), mint: asked('getAccountInfo') };
    const answers = await Promise.all([1, 2, 3].map(() => walletSolanaTransaction(db, order.id, chain.payer.address)));
    expect(answers[0]).toEqual({ ok: true, transaction: expect.any(String) });
    expect(answers[2]).toEqual(answers[0]);
    // One request for the blockhash (kept 5 s), one for the mint's program (kept for good).
    expect(asked('getLatestBlockhash') - before.blockhash).toBe(1);
    expect(asked('getAccountInfo') - before.mint).toBe(1);
    const unsigned = getTransactionDecoder().decode(
      getBase64Encoder().encode((answers[0] as { transaction: string }).transaction),
    );
    const message = getCompiledTransactionMessageDecoder().decode(unsigned.messageBytes);
    expect(message.lifetimeToken).toBe(chain.ledger.svm.latestBlockhash());
    expect(
      await walletSolanaTransaction(db, '00000000-0000-4000-8000-000000000000', chain.payer.address),
    ).toMatchObject({ status: 404 });
    expect(await walletSolanaTransaction(db, order.id, '0OIl')).toMatchObject({ status: 400, error: 'BAD_ACCOUNT' });
    // Signed as the shopper's wallet would, and run by the real SPL Token program.
    const tx = chain.ledger.send(await signTransaction([chain.payer.keyPair], unsigned));
    expect(chain.ledger.transactions.get(tx)!.err).toBeNull();
    await watchLive(db, adapter);
    expect(await payments(order.id)).toEqual([{ tx_hash: tx, status: 'processed', amount: '1250000', tag: order.tag }]);
    expect(await walletSolanaTransaction(db, order.id, chain.payer.address)).toMatchObject({
      status: 409,
      error: 'NOT_PAYABLE',
    });
  });

  it("a merchant's own wallet: its orders are paid there; its reference paid to the gateway's wallet is the gateway's orphan", async () => {
    const own = (await generateKeyPairSigner()).address;
    chain.ledger.svm.airdrop(own, lamports(1_000_000_000n));
    const shop = await createTestMerchant(db, 'Own wallet shop');
    await setDepositKey(db, { merchantId: shop.merchantId, network: 'solana', mode: 'live', key: own });
    const order = await createOrder(db, shop.live, { ...SOL, amount: '0.25' });
    expect(order.address).toBe(own);
    const paid = await send(solTransfer(chain.payer, own, 250_000_000n, order.tag!));
    const elsewhere = await send(solTransfer(chain.payer, chain.wallet, 1_000n, order.tag!));
    await watchLive(db, adapter);
    expect(await payments(order.id)).toEqual([
      { tx_hash: paid, status: 'processed', amount: '250000000', tag: order.tag },
    ]);
    const [orphan] = await db.query<{ kind: string; merchant_id: string; order_id: string | null; address: string }>(
      'select kind, merchant_id, order_id, address from deposits where in_tx_hash = $1',
      [elsewhere],
    );
    expect(orphan).toEqual({ kind: 'ORPHAN', merchant_id: owner.merchantId, order_id: null, address: chain.wallet });
  });

  it('a merchant that changes its wallet: the earlier one is read until the last order issued to it ends, then no more', async () => {
    const [earlier, now] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    for (const wallet of [earlier, now]) chain.ledger.svm.airdrop(wallet.address, lamports(1_000_000_000n));
    const shop = await createTestMerchant(db, 'Wallet changer');
    const setWallet = (key: string) =>
      setDepositKey(db, { merchantId: shop.merchantId, network: 'solana', mode: 'live', key });
    await setWallet(earlier.address);
    const [a, b] = [
      await createOrder(db, shop.live, { ...SOL, amount: '0.1' }),
      await createOrder(db, shop.live, { ...SOL, amount: '0.2' }),
    ];
    await setWallet(now.address);
    const c = await createOrder(db, shop.live, { ...SOL, amount: '0.3' });
    expect([a.address, b.address, c.address]).toEqual([earlier.address, earlier.address, now.address]);
    await send(solTransfer(chain.payer, earlier.address, 100_000_000n, a.tag!));
    await send(solTransfer(chain.payer, now.address, 300_000_000n, c.tag!));
    await watchLive(db, adapter);
    // b is still open under the earlier wallet: it is still read.
    await send(solTransfer(chain.payer, earlier.address, 200_000_000n, b.tag!));
    await watchLive(db, adapter);
    for (const order of [a, b, c]) expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed' });
    // No order is open there any more (decision 100): the earlier wallet is not read, and a later
    // payment to it (which would be an orphan deposit while it was read) is not recorded.
    const later = await send(solTransfer(chain.payer, earlier.address, 1_000n, b.tag!));
    await watchLive(db, adapter);
    expect(await recorded([later])).toEqual([]);
  });

  it('an order keeps its reference when its pool has none fresh: the page asks for the rest under it, and it pays that order', async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '10' });
    // No reference at the pool's next position, as when orders took them all faster than the refill.
    await db.query(
      `select setval($1::regclass, (select max(derivation_index) from addresses where network = 'solana' and mode = 'live') + 100)`,
      [poolSequence(adapter.network, 'live')],
    );
    const first = await send(await usdc(order, 4_000_000n));
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '4000000', tag: order.tag });
    const view = await loadPublicView(db, order.id);
    expect(new URL(view!.walletUri).searchParams.get('reference')).toBe(order.tag);
    expect(new URL(view!.walletUri).searchParams.get('amount')).toBe('6');
    // The reference pays again, as a destination tag does: the rest under it is this order's.
    const second = await send(await usdc(order, 6_000_000n));
    await watchLive(db, adapter);
    expect((await payments(order.id)).map((p) => [p.tx_hash, p.amount, p.tag])).toEqual([
      [first, '4000000', order.tag],
      [second, '6000000', order.tag],
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '10000000' });
    expect(
      await db.query('select 1 from deposits where in_tx_hash = any($1::text[]) and order_id is null', [
        [first, second],
      ]),
    ).toEqual([]);
  });

  it("completes a USDC refund sent by hand by its signature: to the payer's wallet, finalized, at least the amount", async () => {
    const order = await createOrder(db, merchant.live, { ...USDC, amount: '3' });
    await send(await usdc(order, 3_000_000n));
    await watchLive(db, adapter);
    const scope = { merchantId: merchant.merchantId, mode: 'live' as const };
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 1_000_000n,
      createdBy: 'test',
      now: new Date(),
    });
    const back = (await generateKeyPairSigner()).address;
    await createTokenAccount(chain.ledger, chain.payer, back, USDC_MINT);
    await confirmClaim(
      db,
      made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1),
      { address: back, tag: '' },
      new Date(),
    );
    const complete = (txId: string) =>
      completeRefundByTransaction(db, scope, made.refund.id, txId, { now: new Date(), chain: () => adapter });
    // Tokens arrive in the payer's token account; the payer named its wallet, that account's owner.
    const elsewhere = await send(await tokenTransfer(chain.payer, chain.wallet, USDC_MINT, 1_000_000n));
    const short = await send(await tokenTransfer(chain.payer, back, USDC_MINT, 999_999n));
    const right = await send(await tokenTransfer(chain.payer, back, USDC_MINT, 1_000_000n));
    await expect(complete(elsewhere)).rejects.toThrow(/pays no USDC to the refund's address/);
    await expect(complete(short)).rejects.toThrow(/pays 0.999999 USDC/);
    // A well-formed signature no node has.
    const unknown = getBase58Decoder().decode(new Uint8Array(64).fill(7));
    await expect(complete(unknown)).rejects.toThrow(/does not know this transaction/);
    expect(await complete(right)).toMatchObject({ state: 'confirmed', txId: right });
    expect((await orderRow(db, order.id)).status).toBe('processed');
  });

  it("a USDC refund by plan: prepared from the order's wallet, read and signed by the signer, sent to its node, completed by the watcher", async () => {
    // The merchant's own wallet, of a seed only the signer holds (m/44'/501'/0'/0').
    const key = solanaPrivateKeyOfSeed(new Uint8Array(64).fill(11));
    const wallet = solanaWalletOfPrivateKey(key) as Address;
    chain.ledger.svm.airdrop(wallet, lamports(1_000_000_000n));
    await createTokenAccount(chain.ledger, chain.payer, wallet, USDC_MINT);
    const shop = await createTestMerchant(db, 'Solana refunds by plan', {
      scopes: ['read-only', 'signing-plans'],
      mode: 'live',
    });
    await setDepositKey(db, { merchantId: shop.merchantId, network: 'solana', mode: 'live', key: wallet });
    const order = await createOrder(db, shop.live, { ...USDC, amount: '3' });
    const paid = await send(await usdc(order, 3_000_000n, wallet));
    await watchLive(db, adapter);
    const scope = { merchantId: shop.merchantId, mode: 'live' as const };
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 2_000_000n,
      createdBy: 'test',
      now: new Date(),
    });
    // A payer wallet with no USDC account yet: the refund's transaction creates it.
    const back = (await generateKeyPairSigner()).address;
    await confirmClaim(
      db,
      made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1),
      { address: back, tag: '' },
      new Date(),
    );

    useDatabaseForApi(db);
    const prepared = await callInProcess('refund-plans/prepare', { refundId: made.refund.id }, shop.moneyOut);
    expect(prepared.status).toBe(200);
    const plan = solanaRefundPlanSchema.parse(prepared.body.response);
    expect(plan).toMatchObject({
      status: 'prepared',
      currency: 'USDC',
      format: 'solana',
      body: {
        wallet,
        recipient: back,
        mint: USDC_MINT,
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
        decimals: 6,
        amount: '2000000',
      },
      refund: { amount: '2', pays: '2', destination: back, payment: { signatures: [paid] } },
    });
    expect(plan.body.reference).not.toBe(order.tag);
    expect((await callInProcess('refund-plans/prepare', { refundId: made.refund.id }, shop.moneyOut)).status).toBe(409);

    // The signer reads it through the API as `sign --from-api URL --refund-id ID` does.
    const asked = { kind: 'refund' as const, refundId: made.refund.id };
    const answered: unknown = JSON.parse(
      await readPlan({ baseUrl: 'http://gateway.test', key: shop.moneyOut, fetch: inProcessFetch }, asked),
    );
    expect(answerRefusals(answered, asked)).toEqual([]);
    const read = solanaRefundPlanSchema.parse(answered);
    const config = solanaSignerConfigSchema.parse({
      network: 'solana',
      rpc: chain.nodes[0].url,
      refundDailyCaps: { USDC: '100' },
    });
    let ledger: RefundLedger = { refunds: [] };
    const io = () => ({
      node: solanaNode(config.rpc),
      ledger,
      keepLedger: (next: RefundLedger) => void (ledger = next),
      confirm: async () => true,
    });
    const sent = () => chain.nodes.reduce((n, node) => n + (node.calls.get('sendTransaction') ?? 0), 0);

    // A gateway playing attacker rewrites the answer to pay another wallet: refused, nothing kept, nothing sent.
    const attacker = (await generateKeyPairSigner()).address;
    const before = sent();
    await expect(
      signAndSendSolanaRefund({ ...read, body: { ...read.body, recipient: attacker } }, config, wallet, key, io()),
    ).rejects.toThrow(SignerRefusal);
    await expect(
      signAndSendSolanaRefund({ ...read, body: { ...read.body, recipient: attacker } }, config, wallet, key, io()),
    ).rejects.toThrow(/not .*the address the payer confirmed/);
    expect([sent() - before, ledger.refunds]).toEqual([0, []]);

    // A transaction under the plan's reference that pays another amount (one base unit): not the plan's, which stays prepared.
    const short = await signSolanaRefund({ ...read, body: { ...read.body, amount: '1' } }, key, {
      blockhash: chain.ledger.svm.latestBlockhash(),
      lastValidBlockHeight: chain.nodes[0].head() + 150,
    });
    chain.ledger.send(getTransactionDecoder().decode(getBase64Encoder().encode(short.transaction)));
    await watchLive(db, adapter);
    expect(await newestRefundPlan(db, shop.merchantId, 'live', made.refund.id)).toMatchObject({
      status: 'prepared',
      txid: null,
    });
    expect(await getRefund(db, scope, made.refund.id)).toMatchObject({ state: 'ready' });

    const { signature } = await signAndSendSolanaRefund(read, config, wallet, key, io());
    expect(sent() - before).toBe(1);
    expect(ledger.refunds).toMatchObject([{ refundId: made.refund.id, txid: signature, currency: 'USDC' }]);
    expect(chain.ledger.transactions.get(signature)!.err).toBeNull();
    await watchLive(db, adapter);
    expect(await newestRefundPlan(db, shop.merchantId, 'live', made.refund.id)).toMatchObject({
      status: 'confirmed',
      txid: signature,
    });
    expect(await getRefund(db, scope, made.refund.id)).toMatchObject({ state: 'confirmed', txId: signature });
    expect((await orderRow(db, order.id)).status).toBe('processed');
    // Signed once: the same plan again is refused by the ledger.
    await expect(signAndSendSolanaRefund(read, config, wallet, key, io())).rejects.toThrow(/was signed on/);
  });

  it('a SOL refund by plan bearing its fee, from a wallet since replaced: the payer gets the refund less the signature fee', async () => {
    const key = solanaPrivateKeyOfSeed(new Uint8Array(64).fill(12));
    const wallet = solanaWalletOfPrivateKey(key) as Address;
    chain.ledger.svm.airdrop(wallet, lamports(1_000_000_000n));
    const shop = await createTestMerchant(db, 'Solana SOL refunds by plan');
    await setDepositKey(db, { merchantId: shop.merchantId, network: 'solana', mode: 'live', key: wallet });
    const order = await createOrder(db, shop.live, { ...SOL, amount: '0.5' });
    const paid = await send(solTransfer(chain.payer, wallet, 500_000_000n, order.tag!));
    await watchLive(db, adapter);
    const scope = { merchantId: shop.merchantId, mode: 'live' as const };
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 200_000_000n,
      createdBy: 'test',
      now: new Date(),
    });
    const back = (await generateKeyPairSigner()).address;
    chain.ledger.svm.airdrop(back, lamports(1_000_000_000n));
    await confirmClaim(
      db,
      made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1),
      { address: back, tag: '' },
      new Date(),
    );
    const plan = solanaRefundPlanSchema.parse(await planRefund(db, scope, made.refund.id, { feeFromRefund: true }));
    // The merchant sets another wallet, and no order is open at this one: it is read for its open plan still.
    const later = (await generateKeyPairSigner()).address;
    chain.ledger.svm.airdrop(later, lamports(1_000_000_000n));
    await setDepositKey(db, { merchantId: shop.merchantId, network: 'solana', mode: 'live', key: later });
    expect(plan).toMatchObject({
      body: { wallet, recipient: back, mint: null, tokenProgram: null, decimals: 9, amount: '199995000' },
      refund: { amount: '0.2', pays: '0.199995', feeFromRefund: true, payment: { signatures: [paid] } },
    });
    const config = solanaSignerConfigSchema.parse({
      network: 'solana',
      rpc: chain.nodes[1].url,
      refundDailyCaps: { SOL: '1' },
    });
    let ledger: RefundLedger = { refunds: [] };
    const { signature } = await signAndSendSolanaRefund(plan, config, wallet, key, {
      node: solanaNode(config.rpc),
      ledger,
      keepLedger: (next) => void (ledger = next),
      confirm: async () => true,
    });
    const sent = chain.ledger.transactions.get(signature)!;
    const at = sent.keys.indexOf(back);
    expect(sent.postBalances[at]! - sent.preBalances[at]!).toBe(199_995_000);
    await watchLive(db, adapter);
    expect(await getRefund(db, scope, made.refund.id)).toMatchObject({ state: 'confirmed', txId: signature });
  });

  it('fails over to the second node when the first stops mid-run: nothing missed, nothing counted twice', async () => {
    const orders = await Promise.all([1, 2, 3].map(() => createOrder(db, merchant.live, { ...USDC, amount: '1' })));
    await send(await usdc(orders[0]!, 1_000_000n));
    await watchLive(db, adapter);
    await chain.nodes[0].stop();
    try {
      const late = [await send(await usdc(orders[1]!, 1_000_000n))];
      chain.ledger.skip(3);
      late.push(await send(await usdc(orders[2]!, 1_000_000n)));
      await watchLive(db, adapter);
      await watchLive(db, adapter);
      expect(await recorded(late)).toHaveLength(2);
    } finally {
      await chain.nodes[0].start();
    }
    for (const order of orders)
      expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '1000000' });
    const [{ n }] = (await db.query<{ n: number }>(
      'select count(*)::int as n from chain_transfers where order_id = any($1::uuid[])',
      [orders.map((o) => o.id)],
    )) as [{ n: number }];
    expect(n).toBe(3);
  });
});
