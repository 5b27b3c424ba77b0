/**
 * Going live on Solana needs the receiving wallet's token account for each configured mint
 * (lib/chains/solana/accounts.ts): the gateway holds no key and cannot create one, so the adapter
 * refuses to read a block until each exists, naming the account and the command that creates it.
 * Against the litesvm facade (tests/support/solana-facade.ts), no database.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNetwork } from '@/lib/catalog';
import { solanaAdapter } from '@/lib/chains/solana';
import type { LiveChainConfig } from '@/lib/config';
import {
  createTokenAccount,
  litesvmMissing,
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
});
