import { describe, expect, it } from 'vitest';
import { findNetwork } from '../catalog';
import type { BlockRef } from './adapter';
import { failoverAdapter } from './failover';
import type { LiveAdapter } from './live-adapter';
import { RpcStats } from './rpc-stats';

const network = findNetwork('litecoin')!;

/** A node whose chain is `height` blocks long, which fails while `down` is set; it counts what it is asked. */
function fakeNode(height: number) {
  const node = { height, down: false, asked: [] as string[] };
  const ref = (h: number): BlockRef => ({ height: h, hash: `h${h}`, parentHash: `h${h - 1}`, time: new Date(0) });
  const answer = <T>(what: string, value: () => T): Promise<T> => {
    node.asked.push(what);
    return node.down ? Promise.reject(new Error(`${what}: connection refused`)) : Promise.resolve(value());
  };
  const adapter: LiveAdapter = {
    network,
    requiredConfirmations: 3,
    stats: Object.assign(new RpcStats(), { requests: 2, calls: 5 }),
    head: () => answer('head', () => ref(node.height)),
    block: (h) => answer(`block ${h}`, () => (h <= node.height ? ref(h) : null)),
    scan: (from, to) => answer(`scan ${from}-${to}`, () => ({ blocks: [ref(from)], transfers: [] })),
    mempool: () => answer('mempool', () => []),
  };
  return Object.assign(node, { adapter });
}

function setUp(heights: number[], maxLag = 5) {
  const clock = { now: 1_000_000 };
  const nodes = heights.map(fakeNode);
  const adapter = failoverAdapter(
    network,
    nodes.map((n, i) => ({
      url: `http://user:pass@node${i + 1}.example:9332/wallet/key${i}?apikey=SECRET`,
      adapter: n.adapter,
    })),
    { maxLag, now: () => clock.now },
  );
  return { clock, nodes, adapter };
}

describe('failover across the nodes of one network', () => {
  it('reads from the first node and moves to the next in the same call when it fails; the failed one backs off, then is tried again', async () => {
    const { clock, nodes, adapter } = setUp([100, 100]);
    const [first, second] = nodes;
    expect((await adapter.head()).height).toBe(100);
    await adapter.scan(99, 100);
    expect(first!.asked).toContain('scan 99-100');
    expect(second!.asked).not.toContain('scan 99-100');

    first!.down = true;
    expect(await adapter.block(100)).toMatchObject({ height: 100 });
    expect(second!.asked).toContain('block 100');
    expect(adapter.nodes().map((n) => n.state)).toEqual(['failing', 'in use']);
    expect(adapter.nodes()[0]!.error).toMatch(/connection refused/);

    // Backing off: the next passes do not ask it at all.
    first!.asked.length = 0;
    await adapter.head();
    await adapter.scan(100, 100);
    expect(first!.asked).toEqual([]);

    // Back after its backoff (a second after the first failure), it is preferred again.
    first!.down = false;
    clock.now += 1_000;
    await adapter.head();
    await adapter.scan(100, 100);
    expect(first!.asked).toEqual(['head', 'scan 100-100']);
    expect(adapter.nodes().map((n) => n.state)).toEqual(['in use', 'standby']);
    expect(adapter.nodes()[0]!.retryAt).toBeNull();
  });

  it('doubles the backoff at each failure in a row, up to a minute', async () => {
    const { clock, nodes, adapter } = setUp([100, 100]);
    nodes[0]!.down = true;
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      await adapter.head();
      waits.push(adapter.nodes()[0]!.retryAt!.getTime() - clock.now);
      clock.now = adapter.nodes()[0]!.retryAt!.getTime();
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('sets aside a node more than maxLag blocks behind the best one, and takes it back once it has caught up', async () => {
    const { nodes, adapter } = setUp([100, 200], 5);
    const [lagging, good] = nodes;
    expect((await adapter.head()).height).toBe(200);
    expect(adapter.nodes().map((n) => n.state)).toEqual(['lagging', 'in use']);
    expect(adapter.nodes()[0]).toMatchObject({ height: 100, error: '100 blocks behind the best node' });
    await adapter.scan(150, 160);
    expect(lagging!.asked).not.toContain('scan 150-160');
    expect(good!.asked).toContain('scan 150-160');

    // Within maxLag the operator's order decides again.
    lagging!.height = 196;
    expect((await adapter.head()).height).toBe(196);
    expect(adapter.nodes().map((n) => n.state)).toEqual(['in use', 'standby']);
    expect(adapter.nodes()[0]!.error).toBeNull();
  });

  it('pins one node for a watcher step: its mempool, head, blocks and scan, even when the preferred one is back', async () => {
    const { clock, nodes, adapter } = setUp([100, 100]);
    const [first, second] = nodes;
    first!.down = true;
    const step = await adapter.pin(0);
    expect(adapter.nodes().map((n) => n.state)).toEqual(['failing', 'in use']);
    first!.down = false;
    clock.now += 1_000; // the first node's backoff is over: unpinned reads would go to it again
    await step.mempool();
    await step.head();
    await step.block(100);
    await step.scan(100, 100);
    expect(first!.asked).toEqual(['head']);
    expect(second!.asked).toEqual(['head', 'mempool', 'head', 'block 100', 'scan 100-100']);
  });

  it('never pins a node below the floor (the cursor) while another has reached it; the highest when none has', async () => {
    const { nodes, adapter } = setUp([97, 100], 5);
    const [behind, ahead] = nodes;
    // Within maxLag, the preferred node, three blocks below the cursor: not pinned.
    await (await adapter.pin(100)).block(100);
    expect(ahead!.asked).toContain('block 100');
    expect(behind!.asked).not.toContain('block 100');
    expect(adapter.nodes().map((n) => n.state)).toEqual(['standby', 'in use']);
    // At or above the floor, the operator's order decides.
    await (await adapter.pin(97)).block(97);
    expect(behind!.asked).toContain('block 97');
    // No node has reached the floor: the highest, for the watcher to wait on.
    await (await adapter.pin(150)).block(100);
    expect(ahead!.asked.filter((a) => a === 'block 100')).toHaveLength(2);
  });

  it("a pinned node's failure fails the step, without another node's answer; the next step pins another", async () => {
    const { nodes, adapter } = setUp([100, 100]);
    const [first, second] = nodes;
    const step = await adapter.pin(0);
    first!.down = true;
    await expect(step.scan(100, 100)).rejects.toThrow(/scan 100-100: connection refused/);
    expect(second!.asked).toEqual(['head']);
    expect(adapter.nodes().map((n) => n.state)).toEqual(['failing', 'standby']);
    await (await adapter.pin(0)).scan(100, 100);
    expect(second!.asked).toEqual(['head', 'head', 'scan 100-100']);
  });

  it('one node: pinned at once, its head asked once per step, and asked even while it backs off', async () => {
    const { nodes, adapter } = setUp([100]);
    const step = await adapter.pin(0);
    await step.mempool();
    expect((await step.head()).height).toBe(100);
    expect(nodes[0]!.asked).toEqual(['mempool', 'head']);
    nodes[0]!.down = true;
    await expect(step.block(100)).rejects.toThrow(/connection refused/);
    nodes[0]!.down = false;
    expect(await (await adapter.pin(100)).block(100)).toMatchObject({ height: 100 });
  });

  it('scans only on a node whose head reached the last block of the range', async () => {
    const { nodes, adapter } = setUp([198, 200], 5);
    await adapter.head();
    await adapter.scan(199, 200);
    expect(nodes[0]!.asked).not.toContain('scan 199-200');
    expect(nodes[1]!.asked).toContain('scan 199-200');
  });

  it('throws the last error when no node answers, and keeps asking a lone node at every pass', async () => {
    const { clock, nodes, adapter } = setUp([100]);
    nodes[0]!.down = true;
    await expect(adapter.head()).rejects.toThrow(/head: connection refused/);
    // Still within its backoff, but there is no other node: asked anyway.
    nodes[0]!.asked.length = 0;
    await expect(adapter.head()).rejects.toThrow(/connection refused/);
    expect(nodes[0]!.asked).toEqual(['head']);
    nodes[0]!.down = false;
    clock.now += 1;
    expect((await adapter.head()).height).toBe(100);
    // Reads too: a failed read backs it off, and the next read asks it all the same.
    nodes[0]!.down = true;
    await expect(adapter.mempool()).rejects.toThrow(/mempool: connection refused/);
    await expect(adapter.block(100)).rejects.toThrow(/block 100: connection refused/);
  });

  it('shows each node by its origin only, and counts the requests of all of them', async () => {
    const { adapter } = setUp([100, 100]);
    expect(adapter.nodes().map((n) => [n.node, n.state])).toEqual([
      ['http://node1.example:9332', 'not asked yet'],
      ['http://node2.example:9332', 'not asked yet'],
    ]);
    expect(JSON.stringify(adapter.nodes())).not.toMatch(/pass|SECRET|key0|wallet/);
    expect(adapter.stats.snapshot()).toEqual({ requests: 4, calls: 10 });
  });
});
