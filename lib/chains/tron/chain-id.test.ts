/**
 * The chain id of a Tron network from its genesis block id (docs/decisions/130), as TIP-1193's
 * `eth_chainId` gives it: the last four bytes, hex (developers.tron.network/reference-link/eth_chainid
 * lists mainnet 0x2b6653dc, Shasta 0x94a9059e, Nile 0xcd8690dc); and the gateway's node asked for
 * its block 0 once, a node that does not answer making it unknown rather than an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveChainConfig } from '../../config';
import { MAINNET_GENESIS_ID, startFakeTronNode, type FakeTronNode } from '../../../tests/support/fake-tron-node';
import { tronNodeChainId } from './chain-id';
import { TRON_CHAIN_NAMES, tronChainIdFrom, tronChainIdOf } from './transactions';

describe('tronChainIdOf', () => {
  it("answers each network's chain id from its genesis block id", () => {
    expect(tronChainIdOf(MAINNET_GENESIS_ID)).toBe('0x2b6653dc');
    expect(tronChainIdOf('0000000000000000D698D4192C56CB6BE724A558448E2684802DE4D6CD8690DC')).toBe('0xcd8690dc');
    expect(tronChainIdOf('0000000000000000de1aa88295e1fcf982742f773e0419c5a9c134c994a9059e')).toBe('0x94a9059e');
    expect(Object.keys(TRON_CHAIN_NAMES)).toEqual(['0x2b6653dc', '0xcd8690dc', '0x94a9059e']);
    expect(() => tronChainIdOf('2b6653dc')).toThrow('not a block id');
  });

  it("reads a wallet's eth_chainId in the same spelling, and nothing else", () => {
    expect(tronChainIdFrom('0x2B6653DC')).toBe('0x2b6653dc');
    expect(tronChainIdFrom('0x0000abcd')).toBe('0x0000abcd');
    expect(tronChainIdFrom('0xabcd')).toBe('0x0000abcd');
    for (const answer of [728126428, '2b6653dc', '0x', '0x123456789', null, undefined, { chainId: '0x2b6653dc' }])
      expect(tronChainIdFrom(answer)).toBeNull();
  });
});

describe('tronNodeChainId', () => {
  let node: FakeTronNode;
  const config = (url: string) => ({ network: 'tron', nodes: [{ url, timeoutMs: 2_000 }] }) as LiveChainConfig;
  beforeAll(async () => {
    node = await startFakeTronNode();
  });
  afterAll(() => node.close());

  it("answers the node's chain from its block 0, asked once; a silent node is unknown, asked again a minute later", async () => {
    const now = Date.now();
    expect(await tronNodeChainId(config(node.url), now)).toBe('0x2b6653dc');
    expect(await tronNodeChainId(config(node.url), now + 3_600_000)).toBe('0x2b6653dc');
    expect(node.calls.get('/wallet/getblockbynum')).toBe(1);

    // Another configuration (a second URL of the same node, stopped): unknown, kept a minute.
    const stopped = config(`${node.url}/`);
    await node.stop();
    expect(await tronNodeChainId(stopped, now)).toBeNull();
    await node.restart();
    expect(await tronNodeChainId(stopped, now + 59_000)).toBeNull();
    expect(await tronNodeChainId(stopped, now + 60_000)).toBe('0x2b6653dc');
    expect(node.calls.get('/wallet/getblockbynum')).toBe(2);
  });
});
