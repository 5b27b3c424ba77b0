/**
 * The Solana family of `npm run bench:chains -- --family=solana`: MEASURED AGAINST THE TESTS'
 * FACADE over litesvm (tests/support/solana-facade.ts; no Solana validator runs here), the
 * environment that makes `solana` live, and how the bench pays an order (SOL to the receiving
 * wallet carrying the order's reference) and makes a block (`seal()`: the transactions sent since
 * the last one, with some of the chain's other traffic, which never touches the wallet). The calls
 * counted are the adapter's JSON-RPC calls to the facade, one watcher pass per block; what a real
 * node's answers cost (a provider's rate limits, its pages of signatures) is not measured.
 */
import { generateKeyPairSigner } from '@solana/kit';
import type { Queryable } from '../../lib/db';
import {
  litesvmMissing,
  solTransfer,
  startSolanaChain,
  transaction,
  USDC_MINT,
} from '../../tests/support/solana-facade';

/** The merchant whose orphan deposits payments without a reference become; created in each bench database. */
const OWNER = '5d1c3a2b-4e6f-4a8b-9c0d-1e2f3a4b5c6d';

export interface SolanaBench {
  env: Record<string, string>;
  prepare(db: Queryable): Promise<void>;
  mine(): Promise<void>;
  /** Pays `amount` in 10^-8 SOL (SOL has 9 decimals: x10 lamports) to the wallet with the order's reference. */
  pay(to: { address: string; tag: string | null }, amount: bigint): Promise<void>;
  close(): Promise<void>;
}

export async function startSolanaBench(): Promise<SolanaBench> {
  if (litesvmMissing) throw new Error(litesvmMissing);
  const chain = await startSolanaChain();
  chain.ledger.autoSeal = false;
  const others = await Promise.all(Array.from({ length: 5 }, () => generateKeyPairSigner()));
  return {
    env: {
      SOLANA_RPC_URL: chain.nodes[0].url,
      SOLANA_ADDRESS: chain.wallet,
      SOLANA_UNTAGGED_MERCHANT: OWNER,
      SOLANA_TOKENS: `USDC:${USDC_MINT},USDT:${chain.feeMint}`,
    },
    async prepare(db) {
      await db.query(`insert into merchants (id, name) values ($1, 'Bench operator') on conflict do nothing`, [OWNER]);
    },
    async mine() {
      // Other traffic of the block, to other wallets: the adapter never reads it.
      for (const other of others)
        chain.ledger.send(
          await transaction(chain.ledger, chain.payer, [solTransfer(chain.payer, other.address, 1_000_000_000n)]),
        );
      chain.ledger.seal();
    },
    async pay(to, amount) {
      const ix = solTransfer(chain.payer, chain.wallet, amount * 10n, to.tag ?? undefined);
      chain.ledger.send(await transaction(chain.ledger, chain.payer, [ix]));
    },
    close: () => chain.close(),
  };
}
