/**
 * Going live on Solana needs the receiving wallet's token account for each configured mint
 * (lib/chains/solana/accounts.ts): the gateway holds no key and cannot create one, so the adapter
 * refuses to read a block until each exists, naming the account and the command that creates it.
 * Against the litesvm facade (tests/support/solana-facade.ts), no database.
 */
import { getCreateAssociatedTokenIdempotentInstruction } from '@solana-program/token';
import { generateKeyPairSigner, lamports, type Instruction } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNetwork } from '@/lib/catalog';
import { solanaAdapter } from '@/lib/chains/solana';
import type { LiveChainConfig } from '@/lib/config';
import {
  ata,
  createTokenAccount,
  litesvmMissing,
  solTransfer,
  tokenTransfer,
  transaction,
  startSolanaChain,
  TOKEN_2022_PROGRAM,
  USDC_MINT,
  writeMint,
  type SolanaChain,
} from './support/solana-facade';

let chain: SolanaChain;
beforeAll(async () => {
  if (!litesvmMissing) chain = await startSolanaChain();
});
afterAll(() => chain?.close());

function adapterFor(wallet: string, tokens: { ticker: string; contract: string }[]) {
  const catalog = findNetwork('solana')!;
  const network = {
    ...catalog,
    currencies: catalog.currencies.map((c) => ({
      ...c,
      contract: tokens.find((t) => t.ticker === c.ticker)?.contract,
    })),
  };
  const rpc = { url: chain.nodes[1].url, timeoutMs: 3000 };
  const cfg = { network: 'solana', family: 'solana', rpc, nodes: [rpc], account: wallet, tokens } as LiveChainConfig;
  return solanaAdapter(network, cfg);
}

describe.skipIf(litesvmMissing)('Solana receiving token accounts', () => {
  it('names the missing associated token account (Token-2022: its own address and program) and how to create it', async () => {
    const wallet = (await generateKeyPairSigner()).address;
    const adapter = adapterFor(wallet, [
      { ticker: 'USDC', contract: USDC_MINT },
      { ticker: 'USDT', contract: chain.feeMint },
    ]);
    // The catalog's order: USDT (here a Token-2022 mint: another program, another address) first.
    await expect(adapter.head()).rejects.toThrow(
      new RegExp(`USDT \\(mint ${chain.feeMint}\\).*${wallet}.*does not exist.*--program-id ${TOKEN_2022_PROGRAM}`),
    );
    await createTokenAccount(chain.ledger, chain.payer, wallet, chain.feeMint, TOKEN_2022_PROGRAM);
    await expect(adapter.head()).rejects.toThrow(
      new RegExp(
        `USDC \\(mint ${USDC_MINT}\\).*spl-token create-account ${USDC_MINT} --owner ${wallet} --fee-payer <keypair>\``,
      ),
    );
    await createTokenAccount(chain.ledger, chain.payer, wallet, USDC_MINT);
    expect((await adapter.head()).height).toBe(chain.nodes[1].head());
  });

  it('refuses a mint of other decimals than the catalog token, and an address that is no mint', async () => {
    const mint = (await generateKeyPairSigner()).address;
    writeMint(chain.ledger, mint, chain.payer.address, { decimals: 9 });
    await expect(adapterFor(chain.wallet, [{ ticker: 'USDC', contract: mint }]).head()).rejects.toThrow(
      /has 9 decimals; USDC on solana has 6/,
    );
    await expect(adapterFor(chain.wallet, [{ ticker: 'USDC', contract: chain.wallet }]).head()).rejects.toThrow(
      /is not a mint of the SPL Token or Token-2022 program/,
    );
  });

  it("reads a merchant's own wallet the watcher names: a missing token account is no stop, its payments are its own", async () => {
    const adapter = adapterFor(chain.wallet, [{ ticker: 'USDC', contract: USDC_MINT }]);
    const own = (await generateKeyPairSigner()).address;
    chain.ledger.svm.airdrop(own, lamports(1_000_000_000n));
    const reference = (await generateKeyPairSigner()).address;
    // The merchant's wallet has no USDC account: the gateway's does, and the network goes on.
    adapter.watchAccounts!([own]);
    const from = (await adapter.head()).height + 1;
    const send = async (...ixs: Instruction[]) => chain.ledger.send(await transaction(chain.ledger, chain.payer, ixs));
    const sol = await send(solTransfer(chain.payer, own, 5_000n, reference));
    // The payer's wallet creates the account in the payment itself, as Solana Pay wallets do.
    const create = getCreateAssociatedTokenIdempotentInstruction({
      payer: chain.payer,
      ata: await ata(own, USDC_MINT),
      owner: own,
      mint: USDC_MINT,
    });
    const usdc = await send(create, await tokenTransfer(chain.payer, own, USDC_MINT, 7_000n, { reference }));
    // The reference paid to the gateway's wallet is a payment to the gateway's wallet, not to the merchant's.
    const elsewhere = await send(solTransfer(chain.payer, chain.wallet, 9_000n, reference));
    const { transfers } = await adapter.scan(from, chain.nodes[1].head());
    expect(transfers.map((t) => [t.txHash, t.to, t.tag, t.currency, t.amount])).toEqual([
      [sol, own, reference, 'SOL', 5_000n],
      [usdc, own, reference, 'USDC', 7_000n],
      [elsewhere, chain.wallet, reference, 'SOL', 9_000n],
    ]);
  });
});
