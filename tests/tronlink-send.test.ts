/**
 * "Send with TronLink"'s wallet steps (docs/decisions/124) against stand-ins of what TronLink and a
 * TIP-1193 wallet inject: exactly the transfer handed in, and nothing sent from a wallet that
 * answers no Tron account, declines, or answers no transaction id.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendWithTronLink, WALLET_CHAIN_ANSWER_MS } from '@/app/dashboard/(app)/orders/[orderId]/tronlink-send';
import { addressPatterns, findNetwork } from '@/lib/catalog';

const PATTERN = addressPatterns(findNetwork('tron')!).addressRegex;
const TREASURY = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const PAYER = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const TOKEN = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TXID = 'ab'.repeat(32);
/** Chain ids (TIP-1193 `eth_chainId`) and genesis block ids: Tron mainnet's and Nile's (decision 130). */
const MAINNET = '0x2b6653dc';
const NILE = '0xcd8690dc';
const MAINNET_GENESIS = '00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc';
const NILE_GENESIS = '0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc';
const TRX = { to: PAYER, amount: '12500000', contract: null, chainId: MAINNET };

/**
 * A TronLink whose connection answers `connected`, whose account is then `account`, whose
 * `eth_chainId` answers `chain` (none: it knows only its own methods, as an older TronLink; `never`:
 * it never answers), whose
 * TronWeb reads block 0 as `genesis` (none: no `getBlockByNumber`), and whose TRX transfer answers
 * `answer` (or is declined, as TronLink rejects: a plain string); records what it sent.
 */
function tronLink({
  connected = { code: 200 } as unknown,
  account = TREASURY as unknown,
  answer = TXID as unknown,
  declined = false,
  chain = MAINNET as string | null | 'never',
  genesis = undefined as string | undefined,
} = {}) {
  const sent: unknown[][] = [];
  const tronWeb = {
    defaultAddress: { base58: false as unknown },
    trx: {
      sendTransaction: async (to: string, amount: number) => {
        sent.push(['trx', to, amount]);
        if (declined) throw 'Confirmation declined by user';
        return { result: true, txid: answer };
      },
      ...(genesis && { getBlockByNumber: async (num: number) => (num === 0 ? { blockID: genesis } : {}) }),
    },
    contract: () => ({
      at: async (token: string) => ({
        transfer: (to: string, amount: string) => ({
          send: async () => {
            sent.push(['token', token, to, amount]);
            return answer;
          },
        }),
      }),
    }),
  };
  Object.assign(globalThis, {
    window: {
      tronWeb,
      tronLink: {
        request: async ({ method }: { method: string }) => {
          if (method === 'eth_chainId' && chain === 'never') return new Promise(() => {});
          if (method === 'eth_chainId' && chain) return chain;
          if (method !== 'tron_requestAccounts') throw Object.assign(new Error('Unsupported Method'), { code: 4200 });
          tronWeb.defaultAddress = { base58: account };
          return connected;
        },
      },
    },
  });
  return sent;
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe('sendWithTronLink', () => {
  it('sends exactly the TRX in sun, or the token transfer on the configured contract, and answers the txid', async () => {
    let sent = tronLink();
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: true, txHash: TXID, networkChecked: true });
    expect(sent).toEqual([['trx', PAYER, 12_500_000]]);
    sent = tronLink();
    expect(
      await sendWithTronLink({ to: PAYER, amount: '250500000', contract: TOKEN, chainId: MAINNET }, PATTERN),
    ).toEqual({ sent: true, txHash: TXID, networkChecked: true });
    expect(sent).toEqual([['token', TOKEN, PAYER, '250500000']]);
  });

  it('sends nothing when the wallet declines, is busy, answers no Tron account or no transaction id', async () => {
    for (const [wallet, reason] of [
      [{ connected: { code: 4001 } }, 'refused'],
      [{ connected: { code: 4000 } }, 'busy'],
      // Locked: TronLink leaves `defaultAddress.base58` false.
      [{ account: false }, 'no-account'],
      [{ account: '0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0' }, 'no-account'],
    ] as const) {
      const sent = tronLink(wallet);
      expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: false, reason });
      expect(sent).toEqual([]);
    }
    tronLink({ declined: true });
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: false, reason: 'refused' });
    tronLink({ answer: 'not-a-txid' });
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: false, reason: 'failed' });
  });

  it('takes a TIP-1193 provider (window.tron) and its accounts', async () => {
    const sent = tronLink();
    const { tronWeb } = (globalThis as unknown as { window: { tronWeb: unknown } }).window;
    const accounts =
      (answer: unknown) =>
      async ({ method }: { method: string }) => {
        if (method === 'eth_chainId') return MAINNET;
        expect(method).toBe('eth_requestAccounts');
        if (answer instanceof Error) throw answer;
        return answer;
      };
    Object.assign(globalThis, { window: { tron: { tronWeb, request: accounts([TREASURY]) } } });
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: true, txHash: TXID, networkChecked: true });
    expect(sent).toHaveLength(1);
    Object.assign(globalThis, {
      window: {
        tron: { tronWeb, request: accounts(Object.assign(new Error('User Rejected Request'), { code: 4001 })) },
      },
    });
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: false, reason: 'refused' });
    Object.assign(globalThis, { window: { tron: { tronWeb, request: accounts(['not an address']) } } });
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: false, reason: 'no-account' });
    expect(sent).toHaveLength(1);
  });

  it("sends nothing from a wallet on another network than the gateway's node, by eth_chainId or its block 0", async () => {
    let sent = tronLink({ chain: NILE });
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({
      sent: false,
      reason: 'other-network',
      walletChain: NILE,
      expectedNetwork: 'Tron mainnet',
    });
    expect(sent).toEqual([]);
    // An older TronLink without eth_chainId: the genesis block its TronWeb reads tells the chain.
    sent = tronLink({ chain: null, genesis: NILE_GENESIS });
    expect(await sendWithTronLink(TRX, PATTERN)).toMatchObject({ sent: false, reason: 'other-network' });
    expect(sent).toEqual([]);
    sent = tronLink({ chain: null, genesis: MAINNET_GENESIS });
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: true, txHash: TXID, networkChecked: true });
    expect(sent).toHaveLength(1);
    // A chain the gateway's node is on that has no name here is named by its id.
    sent = tronLink();
    expect(await sendWithTronLink({ ...TRX, chainId: '0x12345678' }, PATTERN)).toMatchObject({
      reason: 'other-network',
      expectedNetwork: 'the network of chain 0x12345678',
    });
    expect(sent).toEqual([]);
  });

  it('sends unchecked, and says so, when the wallet or the gateway node cannot tell the network', async () => {
    let sent = tronLink({ chain: null });
    expect(await sendWithTronLink(TRX, PATTERN)).toEqual({ sent: true, txHash: TXID, networkChecked: false });
    expect(sent).toHaveLength(1);
    sent = tronLink({ chain: NILE });
    expect(await sendWithTronLink({ ...TRX, chainId: null }, PATTERN)).toEqual({
      sent: true,
      txHash: TXID,
      networkChecked: false,
    });
    expect(sent).toHaveLength(1);
  });

  it('sends unchecked, and says so, when the wallet never says its network', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const sent = tronLink({ chain: 'never' });
      const outcome = sendWithTronLink(TRX, PATTERN);
      await vi.advanceTimersByTimeAsync(WALLET_CHAIN_ANSWER_MS);
      expect(await outcome).toEqual({ sent: true, txHash: TXID, networkChecked: false });
      expect(sent).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
