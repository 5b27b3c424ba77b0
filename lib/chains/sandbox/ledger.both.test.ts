import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@/tests/support/database';
import { NETWORKS, type Network } from '../../catalog';
import type { Database } from '../../db';
import type { BlockRef } from '../adapter';
import { deriveAddress, isValidAddress, testAccountXpub, testTagAccountAddress } from '../derivation';
import { broadcast, broadcastMany, drop, faucetAddress, mine, sandboxAdapter, startMining } from './index';
import { freshTag } from '../tags';

const net = (name: string): Network => {
  const found = NETWORKS.find((n) => n.name === name);
  if (!found) throw new Error(`catalog has no ${name}`);
  return found;
};
const addressOf = (network: Network, index: number) => deriveAddress(network, testAccountXpub(network), index);

const HASH_FORMAT: Record<Network['family'], RegExp> = {
  utxo: /^[0-9a-f]{64}$/,
  evm: /^0x[0-9a-f]{64}$/,
  tron: /^[0-9a-f]{64}$/,
  xrpl: /^[0-9A-F]{64}$/,
  solana: /^[1-9A-HJ-NP-Za-km-z]{32,88}$/,
};

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

async function transferRows(): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from sandbox_transfers');
  return row!.n;
}

/** Every block from 0 to the tip links to the one below it. */
async function expectLinkedChain(network: Network): Promise<BlockRef[]> {
  const adapter = sandboxAdapter(db, network);
  const head = await adapter.head();
  const { blocks } = await adapter.scan(0, head.height);
  expect(blocks.map((b) => b.height)).toEqual(Array.from({ length: head.height + 1 }, (_, i) => i));
  for (let i = 1; i < blocks.length; i++) {
    expect(blocks[i]!.parentHash).toBe(blocks[i - 1]!.hash);
    expect(blocks[i]!.time.getTime()).toBeGreaterThanOrEqual(blocks[i - 1]!.time.getTime());
  }
  expect(blocks.at(-1)).toEqual(head);
  return blocks;
}

describe('sandbox ledger: formats', () => {
  it('answers transaction and block hashes in each network’s real format', async () => {
    for (const network of NETWORKS) {
      const pattern = HASH_FORMAT[network.family];
      for (const currency of network.currencies) {
        const to = network.usesTags ? testTagAccountAddress(network) : addressOf(network, 1);
        const sent = await broadcast(db, {
          network,
          to,
          tag: network.usesTags ? freshTag(network) : null,
          currency: currency.ticker,
          amount: 1n,
        });
        expect(sent.txHash, `${network.name} ${currency.ticker}`).toMatch(pattern);
        expect(sent.outputIndex).toBe(0);
      }
      const [block] = await mine(db, network);
      expect(block!.hash, network.name).toMatch(pattern);
      expect(block!.parentHash, network.name).toMatch(pattern);
      expect(block!.height).toBe(1);
      const adapter = sandboxAdapter(db, network);
      const genesis = await adapter.block(0);
      expect(genesis!.hash).toMatch(pattern);
      expect(block!.parentHash).toBe(genesis!.hash);
      const { transfers } = await adapter.scan(1, 1);
      expect(transfers.map((t) => t.currency).sort()).toEqual(network.currencies.map((c) => c.ticker).sort());
      for (const t of transfers) expect(t.txHash).toMatch(pattern);
    }
  });

  it('has a fixed genesis block per network, created lazily', async () => {
    const network = net('arbitrum');
    const fresh = await openTestDatabase();
    try {
      const adapter = sandboxAdapter(fresh, network);
      expect(await adapter.block(1)).toBeNull();
      const head = await adapter.head();
      expect(head.height).toBe(0);
      expect(head.parentHash).toBe(`0x${'0'.repeat(64)}`);
      expect(await adapter.block(0)).toEqual(head);
      expect(await adapter.scan(0, 10)).toEqual({ blocks: [head], transfers: [] });
      // Same hash in every database: a deterministic function of the network.
      expect((await sandboxAdapter(db, network).block(0))!.hash).toBe(head.hash);
      expect((await sandboxAdapter(fresh, net('base')).head()).hash).not.toBe(head.hash);
      const [rows] = await fresh.query<{ n: number }>('select count(*)::int as n from sandbox_blocks');
      expect(rows!.n).toBe(2);
    } finally {
      await fresh.close();
    }
  });

  it('sends from a valid faucet address of the network by default', async () => {
    for (const network of NETWORKS) {
      expect(isValidAddress(network, faucetAddress(network)), network.name).toBe(true);
    }
  });
});

describe('sandbox ledger: broadcast validation', () => {
  const bitcoin = net('bitcoin');
  const ethereum = net('ethereum');
  const ripple = net('ripple');
  const solana = net('solana');

  it.each([
    [
      'an invalid address',
      () => broadcast(db, { network: bitcoin, to: 'bc1qnotanaddress', currency: 'BTC', amount: 1n }),
      /not a valid Bitcoin address/,
    ],
    [
      'another network’s address',
      () => broadcast(db, { network: bitcoin, to: addressOf(net('litecoin'), 0), currency: 'BTC', amount: 1n }),
      /not a valid Bitcoin address/,
    ],
    [
      'an EVM address with a broken checksum',
      () =>
        broadcast(db, {
          network: ethereum,
          to: addressOf(ethereum, 0).replace(/[a-f]/, (c) => c.toUpperCase()),
          currency: 'ETH',
          amount: 1n,
        }),
      /not a valid Ethereum address/,
    ],
    [
      'an invalid sender',
      () => broadcast(db, { network: bitcoin, to: addressOf(bitcoin, 0), from: 'nope', currency: 'BTC', amount: 1n }),
      /sender "nope"/,
    ],
    [
      'an unknown currency',
      () => broadcast(db, { network: ethereum, to: addressOf(ethereum, 0), currency: 'BTC', amount: 1n }),
      /unknown currency "BTC"/,
    ],
    [
      'a zero amount',
      () => broadcast(db, { network: bitcoin, to: addressOf(bitcoin, 0), currency: 'BTC', amount: 0n }),
      /amount must be positive/,
    ],
    [
      'a negative amount',
      () => broadcast(db, { network: bitcoin, to: addressOf(bitcoin, 0), currency: 'BTC', amount: -5n }),
      /amount must be positive/,
    ],
    [
      'a tag on a network without tags',
      () => broadcast(db, { network: bitcoin, to: addressOf(bitcoin, 0), tag: '1', currency: 'BTC', amount: 1n }),
      /no destination tags/,
    ],
    [
      'a tag that is not a number',
      () =>
        broadcast(db, { network: ripple, to: testTagAccountAddress(ripple), tag: '12a', currency: 'XRP', amount: 1n }),
      /destination tag/,
    ],
    [
      'a tag above 2^32-1',
      () =>
        broadcast(db, {
          network: ripple,
          to: testTagAccountAddress(ripple),
          tag: '4294967296',
          currency: 'XRP',
          amount: 1n,
        }),
      /destination tag/,
    ],
    [
      'a tag with a leading zero',
      () =>
        broadcast(db, { network: ripple, to: testTagAccountAddress(ripple), tag: '01', currency: 'XRP', amount: 1n }),
      /destination tag/,
    ],
    [
      'a Solana payment reference that is not 32 bytes in base58',
      () =>
        broadcast(db, { network: solana, to: testTagAccountAddress(solana), tag: '7', currency: 'SOL', amount: 1n }),
      /payment reference/,
    ],
  ])('refuses %s and writes nothing', async (_name, attempt, message) => {
    const before = await transferRows();
    await expect(attempt()).rejects.toThrow(message);
    expect(await transferRows()).toBe(before);
  });

  it('refuses a whole batch with one bad transfer', async () => {
    const before = await transferRows();
    const good = { to: addressOf(bitcoin, 0), currency: 'BTC', amount: 1n };
    await expect(broadcastMany(db, bitcoin, [good, good, { ...good, amount: 0n }])).rejects.toThrow(
      /transfer #2: amount must be positive/,
    );
    expect(await transferRows()).toBe(before);
  });

  it('accepts the extreme tags and no tag on a tag network', async () => {
    const to = testTagAccountAddress(ripple);
    await broadcast(db, { network: ripple, to, tag: '0', currency: 'XRP', amount: 1n });
    await broadcast(db, { network: ripple, to, tag: '4294967295', currency: 'XRP', amount: 1n });
    await broadcast(db, { network: ripple, to, currency: 'XRP', amount: 1n });
    const tags = (await sandboxAdapter(db, ripple).mempool()).map((t) => t.tag);
    expect(tags).toEqual(expect.arrayContaining(['0', '4294967295', null]));
  });
});

describe('sandbox ledger: mempool and mining', () => {
  it('keeps broadcast transfers in the mempool as sent', async () => {
    const network = net('polygon');
    const adapter = sandboxAdapter(db, network);
    const to = addressOf(network, 3);
    const from = addressOf(network, 9);
    const at = new Date('2030-01-02T03:04:05.678Z');
    const big = 123_456_789_012_345_678_901_234_567_890n; // beyond 2^64 and any JS number
    const a = await broadcast(db, { network, to, currency: 'usdt', amount: 10_500_000n, at });
    const b = await broadcast(db, { network, to, from, currency: 'POL', amount: big, at: new Date(at.getTime() + 1) });
    expect(await adapter.mempool()).toEqual([
      {
        txHash: a.txHash,
        outputIndex: 0,
        from: faucetAddress(network),
        to,
        tag: null,
        currency: 'USDT',
        amount: 10_500_000n,
        blockHeight: null,
        seenAt: at,
      },
      {
        txHash: b.txHash,
        outputIndex: 0,
        from,
        to,
        tag: null,
        currency: 'POL',
        amount: big,
        blockHeight: null,
        seenAt: new Date(at.getTime() + 1),
      },
    ]);
  });

  it('mines the mempool into the next block, then empty blocks, linked to their parents', async () => {
    const network = net('litecoin');
    const adapter = sandboxAdapter(db, network);
    const start = await adapter.head();
    const to = addressOf(network, 4);
    const sent = await broadcastMany(db, network, [
      { to, currency: 'LTC', amount: 100n },
      { to: addressOf(network, 5), currency: 'LTC', amount: 200n },
    ]);
    const at = new Date('2031-05-06T07:08:09.000Z');
    const blocks = await mine(db, network, 3, at);
    expect(blocks.map((b) => b.height)).toEqual([start.height + 1, start.height + 2, start.height + 3]);
    expect(blocks[0]!.parentHash).toBe(start.hash);
    expect(blocks[1]!.parentHash).toBe(blocks[0]!.hash);
    expect(blocks[2]!.parentHash).toBe(blocks[1]!.hash);
    expect(new Set(blocks.map((b) => b.hash)).size).toBe(3);
    for (const block of blocks) {
      expect(block.time).toEqual(at);
      expect(await adapter.block(block.height)).toEqual(block);
    }
    expect(await adapter.head()).toEqual(blocks[2]);
    expect(await adapter.mempool()).toEqual([]);

    const scan = await adapter.scan(start.height + 1, start.height + 3);
    expect(scan.blocks).toEqual(blocks);
    expect(scan.transfers.map((t) => t.txHash)).toEqual(sent.map((s) => s.txHash).sort());
    for (const t of scan.transfers) {
      expect(t.blockHeight).toBe(start.height + 1);
      expect(t.from).toBe(faucetAddress(network));
    }
    // The later blocks are empty.
    expect((await adapter.scan(start.height + 2, start.height + 3)).transfers).toEqual([]);
    await expectLinkedChain(network);
  });

  it('never dates a block before its parent', async () => {
    const network = net('litecoin');
    const [late] = await mine(db, network, 1, new Date('2032-01-01T00:00:00.000Z'));
    const [early] = await mine(db, network, 1, new Date('2020-01-01T00:00:00.000Z'));
    expect(early!.time).toEqual(late!.time);
    expect(await sandboxAdapter(db, network).block(early!.height)).toEqual(early);
  });

  it('shows confirmations as tip - height + 1 through head and scan', async () => {
    const network = net('bitcoin');
    const adapter = sandboxAdapter(db, network);
    expect(adapter.requiredConfirmations).toBe(network.confirmations);
    const to = addressOf(network, 7);
    const { txHash } = await broadcast(db, { network, to, currency: 'BTC', amount: 1_500_000n });
    const confirmations = async () => {
      const head = await adapter.head();
      const { transfers } = await adapter.scan(0, head.height);
      const mined = transfers.find((t) => t.txHash === txHash);
      return mined ? head.height - mined.blockHeight! + 1 : 0;
    };
    expect(await confirmations()).toBe(0);
    await mine(db, network);
    expect(await confirmations()).toBe(1);
    await mine(db, network, network.confirmations - 1);
    expect(await confirmations()).toBe(network.confirmations);
    await mine(db, network, 3);
    expect(await confirmations()).toBe(network.confirmations + 3);
  });

  it('scans nothing outside the chain', async () => {
    const adapter = sandboxAdapter(db, net('bitcoin'));
    const head = await adapter.head();
    expect(await adapter.scan(head.height + 1, head.height + 100)).toEqual({ blocks: [], transfers: [] });
    expect(await adapter.scan(5, 4)).toEqual({ blocks: [], transfers: [] });
    expect((await adapter.scan(head.height, head.height + 100)).blocks).toEqual([head]);
    expect(await adapter.block(head.height + 1)).toBeNull();
  });

  it('puts 200 transfers into a block with one insert and scans them in order', async () => {
    const network = net('tron');
    const adapter = sandboxAdapter(db, network);
    const transfers = Array.from({ length: 200 }, (_, i) => ({
      to: addressOf(network, i % 20),
      currency: i % 2 ? 'USDT' : 'TRX',
      amount: BigInt(i + 1),
    }));
    const sent = await broadcastMany(db, network, transfers);
    expect(new Set(sent.map((s) => s.txHash)).size).toBe(200);
    const [block] = await mine(db, network);
    const { transfers: scanned } = await adapter.scan(block!.height, block!.height);
    expect(scanned).toHaveLength(200);
    expect(scanned.map((t) => t.txHash)).toEqual(sent.map((s) => s.txHash).sort());
    const byHash = new Map(sent.map((s, i) => [s.txHash, transfers[i]!]));
    for (const t of scanned) {
      expect(t.amount).toBe(byHash.get(t.txHash)!.amount);
      expect(t.to).toBe(byHash.get(t.txHash)!.to);
    }
  });

  it('gives concurrent mine calls distinct consecutive heights', async () => {
    const network = net('dogecoin');
    const adapter = sandboxAdapter(db, network);
    const start = await adapter.head();
    await broadcast(db, { network, to: addressOf(network, 0), currency: 'DOGE', amount: 42n });
    const results = await Promise.all(Array.from({ length: 5 }, () => mine(db, network)));
    const heights = results.map((r) => r[0]!.height).sort((a, b) => a - b);
    expect(heights).toEqual([1, 2, 3, 4, 5].map((i) => start.height + i));
    expect((await adapter.head()).height).toBe(start.height + 5);
    // The transfer went into exactly one of them.
    const { transfers } = await adapter.scan(start.height + 1, start.height + 5);
    expect(transfers).toHaveLength(1);
    await expectLinkedChain(network);
  });
});

describe('sandbox ledger: drop', () => {
  it('reorganises a mined transaction away from its height up', async () => {
    const network = net('bitcoin');
    const adapter = sandboxAdapter(db, network);
    const to = addressOf(network, 11);
    const a = await broadcast(db, { network, to, currency: 'BTC', amount: 1n });
    const [blockA] = await mine(db, network);
    const b = await broadcast(db, { network, to, currency: 'BTC', amount: 2n });
    const c = await broadcast(db, { network, to, currency: 'BTC', amount: 3n });
    const [blockB] = await mine(db, network);
    await mine(db, network, 2);
    const h = blockB!.height;
    const before = (await adapter.scan(0, h + 2)).blocks;

    await drop(db, network, b.txHash);

    const after = await expectLinkedChain(network);
    expect(after).toHaveLength(before.length);
    for (let height = 0; height < h; height++) expect(after[height]).toEqual(before[height]);
    for (let height = h; height <= h + 2; height++) {
      expect(after[height]!.hash).not.toBe(before[height]!.hash);
      expect(after[height]!.time).toEqual(before[height]!.time);
    }
    expect((await adapter.block(h))!.hash).not.toBe(blockB!.hash);
    expect(await adapter.block(h - 1)).toEqual(before[h - 1]);
    expect((await adapter.head()).height).toBe(h + 2);

    const { transfers } = await adapter.scan(blockA!.height, h + 2);
    const hashes = transfers.map((t) => t.txHash);
    expect(hashes).not.toContain(b.txHash);
    expect(hashes).toContain(a.txHash);
    expect(transfers.find((t) => t.txHash === c.txHash)!.blockHeight).toBe(h);
    expect(transfers.find((t) => t.txHash === a.txHash)!.blockHeight).toBe(blockA!.height);
    expect(await adapter.mempool()).toEqual([]);

    const [row] = await db.query<{ block_height: string | null; dropped: boolean }>(
      'select block_height, dropped_at is not null as dropped from sandbox_transfers where tx_hash = $1',
      [b.txHash],
    );
    expect(row).toEqual({ block_height: null, dropped: true });

    // Again: nothing left to drop, the chain stays as it is.
    await drop(db, network, b.txHash);
    expect((await adapter.scan(0, h + 2)).blocks).toEqual(after);
  });

  it('drops a mempool transaction without touching the chain', async () => {
    const network = net('ripple');
    const adapter = sandboxAdapter(db, network);
    await mine(db, network); // clear what earlier tests left
    const to = testTagAccountAddress(network);
    const keep = await broadcast(db, { network, to, tag: '99', currency: 'XRP', amount: 5n });
    const gone = await broadcast(db, { network, to, tag: '100', currency: 'XRP', amount: 6n });
    const chain = await expectLinkedChain(network);

    await drop(db, network, gone.txHash.toLowerCase()); // hex in any case
    expect((await adapter.mempool()).map((t) => t.txHash)).toEqual([keep.txHash]);
    expect(await expectLinkedChain(network)).toEqual(chain);

    const [block] = await mine(db, network);
    const { transfers } = await adapter.scan(block!.height, block!.height);
    expect(transfers.map((t) => t.txHash)).toEqual([keep.txHash]);
    expect(transfers[0]!.tag).toBe('99');
  });

  it('accepts an EVM hash in upper case and refuses unknown ones', async () => {
    const network = net('ethereum');
    const { txHash } = await broadcast(db, { network, to: addressOf(network, 0), currency: 'ETH', amount: 1n });
    await mine(db, network);
    await drop(db, network, `0x${txHash.slice(2).toUpperCase()}`);
    const head = await sandboxAdapter(db, network).head();
    expect((await sandboxAdapter(db, network).scan(0, head.height)).transfers.map((t) => t.txHash)).not.toContain(
      txHash,
    );

    await expect(drop(db, network, `0x${'ab'.repeat(32)}`)).rejects.toThrow(/unknown transaction/);
    await expect(drop(db, network, 'not-a-hash')).rejects.toThrow(/not a transaction hash/);
    // A hash of another network's ledger is unknown here.
    const other = await broadcast(db, {
      network: net('base'),
      to: addressOf(net('base'), 0),
      currency: 'ETH',
      amount: 1n,
    });
    await expect(drop(db, network, other.txHash)).rejects.toThrow(/unknown transaction/);
  });
});

describe('sandbox ledger: startMining', () => {
  it('mines a block per network on a timer until stopped', async () => {
    const networks = [net('bitcoincash'), net('bsc')];
    const heights = async () => Promise.all(networks.map(async (n) => (await sandboxAdapter(db, n).head()).height));
    const start = await heights();
    await broadcast(db, { network: networks[0]!, to: addressOf(networks[0]!, 0), currency: 'BCH', amount: 9n });
    const stop = startMining(db, networks, 20);
    try {
      const deadline = Date.now() + 5000;
      while ((await heights()).some((h, i) => h < start[i]! + 2) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      stop();
    }
    const mined = await heights();
    mined.forEach((h, i) => expect(h).toBeGreaterThanOrEqual(start[i]! + 2));
    expect(await sandboxAdapter(db, networks[0]!).mempool()).toEqual([]);
    // A run that was under way when stop() came may still finish its block; then nothing more.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const settled = await heights();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await heights()).toEqual(settled);
    for (const network of networks) await expectLinkedChain(network);
  });

  it('logs a failing network and keeps mining the others', async () => {
    const fake = { ...net('bitcoin'), name: 'nosuchchain' };
    const network = net('dogecoin');
    const start = (await sandboxAdapter(db, network).head()).height;
    const write = process.stderr.write;
    const lines: string[] = [];
    process.stderr.write = ((chunk: string) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    const stop = startMining(db, [fake, network], 15);
    try {
      const deadline = Date.now() + 5000;
      while ((await sandboxAdapter(db, network).head()).height < start + 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      stop();
      process.stderr.write = write;
    }
    expect((await sandboxAdapter(db, network).head()).height).toBeGreaterThanOrEqual(start + 2);
    expect(lines.some((l) => l.includes('sandbox: mining a block failed') && l.includes('nosuchchain'))).toBe(true);
  });
});
