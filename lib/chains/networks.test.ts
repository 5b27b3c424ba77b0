/**
 * Each network's policy per mode, from the environment as the gateway reads it: the caches of the
 * configuration and of the live networks are dropped before each case.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findNetwork } from '../catalog';
import { forgetProcessSlot } from '../process';
import { testAccountXpub } from './derivation';
import {
  blockSecondsOf,
  enabledNetworks,
  networkFor,
  orderNetwork,
  paymentUri,
  requiredConfirmations,
} from './networks';

const saved = { ...process.env };
const CONTRACT = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const PAYEE = '0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0';

function environment(env: Record<string, string>): void {
  process.env = { ...saved, ...env };
  forgetProcessSlot('config');
  forgetProcessSlot('liveNetworks');
}

/** Ethereum live against a test chain, with its own confirmations and USDT contract, and no USDC. */
const liveEthereum = () => ({
  ETHEREUM_RPC_URL: 'http://127.0.0.1:8545/',
  ETHEREUM_XPUB: testAccountXpub(findNetwork('ethereum')!),
  ETHEREUM_CONFIRMATIONS: '3',
  ETHEREUM_CHAIN_ID: '1337',
  ETHEREUM_TOKENS: `USDT:${CONTRACT}`,
});

afterEach(() => environment({}));

describe('network policy per mode', () => {
  it('test keys use every catalog network, with SANDBOX_CONFIRMATIONS required whatever the network counts', () => {
    environment({ SANDBOX_CONFIRMATIONS: '7' });
    expect(enabledNetworks('test').map((n) => n.name)).toEqual([
      'bitcoin',
      'litecoin',
      'bitcoincash',
      'dogecoin',
      'ethereum',
      'bsc',
      'polygon',
      'arbitrum',
      'base',
      'tron',
      'ripple',
      'solana',
    ]);
    const litecoin = networkFor('test', 'LiteCoin')!;
    expect(litecoin).toMatchObject({ name: 'litecoin', confirmations: 6, defaultLifetime: 3600, usesTags: false });
    expect(requiredConfirmations('test', litecoin)).toBe(7);
    expect(requiredConfirmations('test', networkFor('test', 'ripple')!)).toBe(7);
    expect(networkFor('test', 'namecoin')).toBeUndefined();
  });

  it("estimates use the sandbox's pace in test mode (none when it mines on demand), the catalog's live", () => {
    environment({ SANDBOX_BLOCK_SECONDS: '2' });
    const litecoin = orderNetwork('test', 'litecoin')!;
    expect(blockSecondsOf('test', litecoin)).toBe(2);
    expect(blockSecondsOf('live', litecoin)).toBe(150);
    environment({ SANDBOX_BLOCK_SECONDS: '0' });
    expect(blockSecondsOf('test', litecoin)).toBe(0);
  });

  it('live keys use nothing until a node is configured; an order of a network turned off keeps its catalog entry', () => {
    environment({});
    expect(enabledNetworks('live')).toEqual([]);
    expect(networkFor('live', 'ethereum')).toBeUndefined();
    expect(orderNetwork('live', 'ethereum')).toMatchObject({ name: 'ethereum', confirmations: 12, chainId: 1 });
    expect(requiredConfirmations('live', orderNetwork('live', 'ethereum')!)).toBe(12);
    expect(orderNetwork('live', 'namecoin')).toBeUndefined();
  });

  it('a configured live network: its confirmations, chain id and token contracts, in the wallet URI too', () => {
    environment({ ...liveEthereum(), SANDBOX_CONFIRMATIONS: '7' });
    expect(enabledNetworks('live').map((n) => n.name)).toEqual(['ethereum']);
    const ethereum = networkFor('live', 'ethereum')!;
    expect(ethereum.chainId).toBe(1337);
    expect(ethereum.currencies.map((c) => [c.ticker, c.contract])).toEqual([
      ['ETH', undefined],
      ['USDT', CONTRACT],
    ]);
    expect(requiredConfirmations('live', ethereum)).toBe(3);
    expect(orderNetwork('live', 'ethereum')).toBe(ethereum);
    expect(paymentUri(ethereum, PAYEE, null, 'USDT', 12_500_000n)).toBe(
      `ethereum:${CONTRACT}@1337/transfer?address=${PAYEE}&uint256=12500000`,
    );
    expect(networkFor('live', 'bitcoin')).toBeUndefined();
    // Test mode is not touched by the live configuration.
    expect(networkFor('test', 'ethereum')).toMatchObject({ confirmations: 12, chainId: 1 });
    expect(requiredConfirmations('test', networkFor('test', 'ethereum')!)).toBe(7);
  });

  it('a live network whose extended public key cannot derive stops the first reader, naming its variable', () => {
    environment({ ...liveEthereum(), ETHEREUM_XPUB: liveEthereum().ETHEREUM_XPUB.slice(0, -2) });
    expect(() => enabledNetworks('live')).toThrow(/ETHEREUM_XPUB/);
    expect(() => networkFor('live', 'ethereum')).toThrow(/ETHEREUM_XPUB/);
  });
});
