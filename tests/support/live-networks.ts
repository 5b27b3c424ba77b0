/**
 * How a live-chain test reaches each kind of node, one helper per kind, for `withLiveNetwork`
 * (./live.ts): which node to start and the network's live settings for it. A test adds what is
 * its own (its key, its tokens, its confirmations).
 */
import { startLitecoind, type Litecoind } from '../../scripts/lib/litecoind.mjs';
import { CHAIN_ID, startEvmNode, type EvmNode } from './evm';
import { startFakeRippled, type FakeRippled } from './fake-rippled';
import { startFakeTronNode, type FakeTronNode } from './fake-tron-node';
import type { LiveNetworkSpec } from './live';
import { startScriptedEvmNode, type ScriptedEvmNode } from './scripted-evm-node';

/**
 * litecoind in regtest (Debian's package), watched through the extended key `xpub` (or a descriptor
 * with its origin); `txindex: false` starts it without `-txindex`.
 */
export function litecoindNetwork(settings: {
  xpub: string;
  confirmations: number;
  txindex?: boolean;
}): LiveNetworkSpec<Litecoind> {
  return {
    network: 'litecoin',
    start: () => startLitecoind({ txindex: settings.txindex ?? true }),
    env: (node) => ({
      LITECOIN_RPC_URL: node.url,
      LITECOIN_RPC_USER: node.user,
      LITECOIN_RPC_PASSWORD: node.password,
      LITECOIN_XPUB: settings.xpub,
      LITECOIN_CHAIN: 'regtest',
      LITECOIN_CONFIRMATIONS: String(settings.confirmations),
    }),
  };
}

/**
 * anvil as the live `ethereum` network; `prepare` deploys what the test pays with (its tokens)
 * before the gateway is configured, and answers the settings that name them.
 */
export function anvilNetwork(settings: {
  xpub: string;
  confirmations: number;
  prepare(node: EvmNode): Promise<Record<string, string>>;
}): LiveNetworkSpec<EvmNode> {
  const prepared = new WeakMap<EvmNode, Record<string, string>>();
  return {
    network: 'ethereum',
    start: async () => {
      const node = await startEvmNode();
      prepared.set(node, await settings.prepare(node));
      return node;
    },
    env: (node) => ({
      ETHEREUM_RPC_URL: node.url,
      ETHEREUM_XPUB: settings.xpub,
      ETHEREUM_CHAIN_ID: String(CHAIN_ID),
      ETHEREUM_CONFIRMATIONS: String(settings.confirmations),
      ETHEREUM_HEAD_LAG: '0',
      ...prepared.get(node),
    }),
  };
}

/**
 * The scripted EVM node (tests/support/scripted-evm-node.ts) as the live `ethereum` network, a few
 * blocks mined; `tokens` names the contracts that credit (they answer `decimals()` as the catalog's
 * token has them), e.g. `{ USDT: '0x...' }`.
 */
export function scriptedEvmNetwork(settings: {
  xpub: string;
  confirmations: number;
  tokens: Record<string, string>;
}): LiveNetworkSpec<ScriptedEvmNode> {
  return {
    network: 'ethereum',
    start: async () => {
      const node = await startScriptedEvmNode();
      for (const contract of Object.values(settings.tokens)) node.decimals.set(contract.toLowerCase(), 6);
      node.mine(5);
      return node;
    },
    env: (node) => ({
      ETHEREUM_RPC_URL: node.url,
      ETHEREUM_XPUB: settings.xpub,
      ETHEREUM_CHAIN_ID: String(node.chainId),
      ETHEREUM_CONFIRMATIONS: String(settings.confirmations),
      ETHEREUM_HEAD_LAG: '0',
      ETHEREUM_TOKENS: Object.entries(settings.tokens)
        .map(([ticker, contract]) => `${ticker}:${contract}`)
        .join(','),
      CHAIN_RPC_TIMEOUT_MS: '3000',
    }),
  };
}

/** The fake java-tron node (tests/support/fake-tron-node.ts), a few blocks mined. */
export function fakeTronNetwork(settings: {
  apiKey: string;
  xpub: string;
  confirmations: number;
  tokens: string;
}): LiveNetworkSpec<FakeTronNode> {
  return {
    network: 'tron',
    start: async () => {
      const node = await startFakeTronNode({ apiKey: settings.apiKey });
      // The configured tokens are the catalog's (6 decimals, as TRC-20 USDT).
      for (const [, contract] of settings.tokens.split(',').map((entry) => entry.split(':')))
        if (contract) node.tokenDecimals.set(contract, 6);
      node.mine(5);
      return node;
    },
    env: (node) => ({
      TRON_RPC_URL: node.url,
      TRON_API_KEY: settings.apiKey,
      TRON_XPUB: settings.xpub,
      TRON_CONFIRMATIONS: String(settings.confirmations),
      TRON_TOKENS: settings.tokens,
      // Blocks are read up to the head, so that a test sees a payment at the block it mines.
      TRON_HEAD_LAG: '0',
      CHAIN_RPC_TIMEOUT_MS: '3000',
    }),
  };
}

/**
 * The fake rippled (tests/support/fake-rippled.ts) with `account` as the receiving account;
 * `untaggedMerchant` makes (once the database is open) the merchant that untagged deposits go to.
 */
export function fakeRippledNetwork(settings: {
  account: string;
  untaggedMerchant(db: import('@/lib/db/client').Database): Promise<string>;
}): LiveNetworkSpec<FakeRippled> {
  return {
    network: 'ripple',
    start: () => startFakeRippled(),
    // The configuration needs an untagged-deposit merchant to open the database; replaced once it is.
    env: (node) => ({
      RIPPLE_RPC_URL: node.url,
      RIPPLE_ADDRESS: settings.account,
      RIPPLE_UNTAGGED_MERCHANT: '00000000-0000-4000-8000-000000000000',
      CHAIN_RPC_TIMEOUT_MS: '3000',
    }),
    afterDatabase: async (db) => ({ RIPPLE_UNTAGGED_MERCHANT: await settings.untaggedMerchant(db) }),
  };
}
