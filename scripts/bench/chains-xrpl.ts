/**
 * The XRP Ledger family of `npm run bench:chains -- --family=xrpl`: the fake rippled of the tests
 * (tests/support/fake-rippled.ts; rippled cannot run here), the environment that makes `ripple`
 * live, and how the bench pays an order (to the receiving account with the order's tag) and
 * closes a ledger. The fake closes a ledger when asked, as the real network does every 3-5 s.
 */
import type { Queryable } from '../../lib/db';
import { startFakeRippled, type FakeRippled } from '../../tests/support/fake-rippled';

/** The XRP Ledger's genesis account: a valid classic address. */
const ACCOUNT = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
/** The merchant whose orphan deposits untagged payments become; created in each bench database. */
const OWNER = '0b5e1a6c-2d4f-4e8a-9c3b-7f1e2d3c4b5a';

export interface XrplBench {
  env: Record<string, string>;
  /** Creates the untagged-payments merchant in a fresh database. */
  prepare(db: Queryable): Promise<void>;
  mine(): Promise<void>;
  /** Pays `amount` in 10^-8 XRP (multiples of 100: XRP has 6 decimals) to a destination. */
  pay(to: { address: string; tag: string | null }, amount: bigint): Promise<void>;
  close(): Promise<void>;
}

export async function startXrplBench(): Promise<XrplBench> {
  const node: FakeRippled = await startFakeRippled();
  return {
    env: { RIPPLE_RPC_URL: node.url, RIPPLE_ADDRESS: ACCOUNT, RIPPLE_UNTAGGED_MERCHANT: OWNER },
    async prepare(db) {
      await db.query(`insert into merchants (id, name) values ($1, 'Bench operator') on conflict do nothing`, [OWNER]);
    },
    async mine() {
      // Other traffic of the ledger, which the adapter reads and leaves.
      for (let i = 0; i < 20; i++) node.pay({ to: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', tag: i, delivered: '1000000' });
      node.closeLedger();
    },
    async pay(to, amount) {
      if (amount % 100n !== 0n) throw new Error(`${amount} is not a whole number of drops`);
      node.pay({ to: to.address, tag: to.tag === null ? undefined : Number(to.tag), delivered: String(amount / 100n) });
    },
    close: () => node.close(),
  };
}
