/**
 * The Tron family of `npm run bench:chains -- --family=tron`: the fake java-tron node of
 * tests/support/fake-tron-node.ts (no Tron node runs here) over real HTTP on 127.0.0.1, with
 * TronGrid's API-key header. Every payment block also carries a USDT transfer between two unwatched
 * accounts, as every mainnet block does, so the per-block execution-result call is counted.
 */
import { randomTronAccount, startFakeTronNode } from '../../tests/support/fake-tron-node';

export async function startTronBench(xpub: string, confirmations: number) {
  const node = await startFakeTronNode({ apiKey: 'bench-api-key' });
  node.mine(5);
  const usdt = randomTronAccount();
  node.tokenDecimals.set(usdt, 6);
  const payer = randomTronAccount();
  return {
    env: {
      TRON_RPC_URL: node.url,
      TRON_API_KEY: 'bench-api-key',
      TRON_XPUB: xpub,
      TRON_CONFIRMATIONS: String(confirmations),
      TRON_TOKENS: `USDT:${usdt}`,
    },
    chain: {
      mine: async () => node.mine(1),
      /** Pays `amount` sun of TRX; TRX has 6 decimals. */
      pay: async (to: { address: string }, amount: bigint) => {
        node.sendTrx(payer, to.address, amount);
        node.sendToken(usdt, payer, randomTronAccount(), 1_000_000n);
      },
      orderAmount: (amount: bigint) => `0.${amount.toString().padStart(6, '0')}`,
    },
    close: () => node.close(),
  };
}
