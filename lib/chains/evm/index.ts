import 'server-only';
/**
 * The ChainAdapter of the EVM networks (ethereum, bsc, polygon, arbitrum, base) over a node's
 * JSON-RPC, with viem. Watch-only: deposit addresses derive from the merchant's extended public key.
 *
 * - Native coin: the value of each block transaction (getBlock with transactions), only when its
 *   receipt has status 1 (eth_getBlockReceipts, or one receipt per value transfer where the node
 *   lacks it). Value moved by contracts (internal transfers) is not seen.
 * - Tokens: `Transfer` logs from eth_getLogs filtered by the configured contracts only: anyone can
 *   emit a Transfer event, so a log from any other contract never credits. A log exists only in a
 *   successful transaction. The range is halved while the node refuses it as too large.
 * - The watcher stays `headLag` blocks behind the node's head: some nodes answer incomplete logs
 *   for the newest blocks without an error.
 * - Each scanned block must build on the one before (parent hash) and every log must belong to the
 *   block scanned at its height; otherwise the chain moved during the scan and the step is retried.
 * Calls per block do not depend on the watched addresses: the node is never asked about them.
 */
import {
  BaseError,
  createPublicClient,
  decodeEventLog,
  getAddress,
  http,
  parseAbiItem,
  type Hash,
  type Log,
  type PublicClient,
} from 'viem';
import type { Network } from '../../catalog';
import type { LiveChainConfig } from '../../config/chains';
import type { BlockRef, ChainTransfer } from '../adapter';
import type { LiveAdapter } from '../live-adapter';
import { RpcStats } from '../rpc-stats';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export class EvmNodeError extends Error {
  override name = 'EvmNodeError';
}

/** What nodes answer for an eth_getLogs range they will not serve (geth, erigon, Alchemy, Infura, BSC...). */
const RANGE_REFUSED = /range|too many|too large|limit|exceed|timeout|10000 results|response size/i;

export function evmAdapter(network: Network, cfg: LiveChainConfig): LiveAdapter {
  const stats = new RpcStats();
  const label = `${network.name} node at ${cfg.rpc.url}`;
  const headers: Record<string, string> = {};
  if (cfg.rpc.user !== undefined) headers.authorization = `Basic ${Buffer.from(`${cfg.rpc.user}:${cfg.rpc.password ?? ''}`).toString('base64')}`;
  const client: PublicClient = createPublicClient({
    transport: http(cfg.rpc.url, {
      batch: { batchSize: 50 },
      retryCount: 0, // the watcher's next pass is the retry
      timeout: cfg.rpc.timeoutMs,
      maxResponseBodySize: 256 * 1024 * 1024,
      fetchOptions: { headers },
      fetchFn: async (input, init) => {
        const body = typeof init?.body === 'string' ? init.body : '';
        stats.request(body.startsWith('[') ? (JSON.parse(body) as unknown[]).length : 1);
        return fetch(input, init);
      },
    }),
  });
  const contracts = new Map(network.currencies.filter((c) => c.contract).map((c) => [c.contract!.toLowerCase(), c.ticker]));
  const native = network.currencies.find((c) => !c.contract)!.ticker;
  let chainChecked = false;
  let blockReceipts: boolean | undefined;

  /** Node errors without the URL's path or query (an API key may live there) or request bodies. */
  async function guard<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof EvmNodeError) throw error;
      throw new EvmNodeError(`${label}: ${what} failed: ${describe(error)}`, { cause: undefined });
    }
  }

  async function checkChain(): Promise<void> {
    if (chainChecked) return;
    const id = await client.getChainId();
    if (id !== cfg.chainId) {
      throw new EvmNodeError(`${label} is on chain id ${id}, expected ${cfg.chainId} (${network.name.toUpperCase()}_CHAIN_ID)`);
    }
    chainChecked = true;
  }

  const toRef = (b: { number: bigint | null; hash: Hash | null; parentHash: Hash; timestamp: bigint }): BlockRef => ({
    height: Number(b.number),
    hash: b.hash!,
    parentHash: b.parentHash,
    time: new Date(Number(b.timestamp) * 1000),
  });

  async function blockAt(height: number): Promise<BlockRef | null> {
    try {
      return toRef(await client.getBlock({ blockNumber: BigInt(height) }));
    } catch (error) {
      if (error instanceof BaseError && error.name === 'BlockNotFoundError') return null;
      throw error;
    }
  }

  /** Status of the receipts of `txs` (hash -> succeeded), per block. */
  async function receiptStatus(blockNumber: bigint, txs: Hash[]): Promise<Map<string, boolean>> {
    const status = new Map<string, boolean>();
    if (txs.length === 0) return status;
    if (blockReceipts !== false) {
      try {
        const receipts = (await client.request({ method: 'eth_getBlockReceipts' as never, params: [`0x${blockNumber.toString(16)}`] as never })) as
          | { transactionHash: string; status: string }[]
          | null;
        if (receipts) {
          blockReceipts = true;
          for (const r of receipts) status.set(r.transactionHash.toLowerCase(), r.status === '0x1');
          return status;
        }
      } catch (error) {
        if (blockReceipts === true) throw error;
        blockReceipts = false; // not offered by this node: one receipt per value transfer
      }
    }
    const receipts = await Promise.all(txs.map((hash) => client.getTransactionReceipt({ hash })));
    for (const r of receipts) status.set(r.transactionHash.toLowerCase(), r.status === 'success');
    return status;
  }

  /** Transfer logs of the configured contracts, halving the range while the node refuses it. */
  async function transferLogs(from: number, to: number): Promise<Log<bigint, number, false, typeof TRANSFER, true>[]> {
    if (contracts.size === 0) return [];
    const ranges: [number, number][] = [];
    for (let start = from; start <= to; start += cfg.logBlockRange) ranges.push([start, Math.min(to, start + cfg.logBlockRange - 1)]);
    const logs = [];
    while (ranges.length) {
      const [a, b] = ranges.shift()!;
      try {
        logs.push(
          ...(await client.getLogs({
            address: [...contracts.keys()] as `0x${string}`[],
            event: TRANSFER,
            fromBlock: BigInt(a),
            toBlock: BigInt(b),
            strict: true,
          })),
        );
      } catch (error) {
        if (a === b || !RANGE_REFUSED.test(describe(error))) throw error;
        const mid = Math.floor((a + b) / 2);
        ranges.unshift([a, mid], [mid + 1, b]);
      }
    }
    return logs;
  }

  return {
    network,
    // The live network carries its configured count (requiredConfirmations('live', network), ../networks).
    requiredConfirmations: network.confirmations,
    stats,

    head: () =>
      guard('reading the head', async () => {
        await checkChain();
        const tip = Number(await client.getBlockNumber({ cacheTime: 0 }));
        const ref = await blockAt(Math.max(0, tip - cfg.headLag));
        if (!ref) throw new EvmNodeError(`${label}: block ${tip - cfg.headLag} vanished under the head`);
        return ref;
      }),

    block: (height) => guard(`reading block ${height}`, () => blockAt(height)),

    scan: (from, to) =>
      guard(`scanning blocks ${from}-${to}`, async () => {
        const heights = Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));
        const [full, logs] = await Promise.all([
          Promise.all(heights.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true }))),
          transferLogs(from, to),
        ]);
        const blocks: BlockRef[] = [];
        const transfers: ChainTransfer[] = [];
        const byHeight = new Map<number, BlockRef>();
        for (const b of full) {
          const ref = toRef(b);
          const previous = blocks[blocks.length - 1];
          if (previous && ref.parentHash !== previous.hash) throw new EvmNodeError(`${label}: the chain changed during the scan at block ${ref.height}`);
          blocks.push(ref);
          byHeight.set(ref.height, ref);
          const paying = b.transactions.filter((t) => t.to && t.value > 0n);
          const ok = await receiptStatus(b.number!, paying.map((t) => t.hash));
          for (const t of paying) {
            if (ok.get(t.hash.toLowerCase()) !== true) continue; // reverted: moved nothing
            transfers.push({
              txHash: t.hash,
              outputIndex: 0,
              from: getAddress(t.from),
              to: getAddress(t.to!),
              tag: null,
              currency: native,
              amount: t.value,
              blockHeight: ref.height,
              seenAt: ref.time,
            });
          }
        }
        for (const log of logs) {
          const ref = byHeight.get(Number(log.blockNumber));
          if (!ref || log.blockHash !== ref.hash) throw new EvmNodeError(`${label}: logs of block ${log.blockNumber} are from another chain than its block`);
          if (log.removed) continue;
          const ticker = contracts.get(log.address.toLowerCase());
          if (!ticker) continue; // the node ignored the address filter: never credit another contract
          const { args } = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics, strict: true });
          if (args.value <= 0n) continue;
          transfers.push({
            txHash: log.transactionHash,
            outputIndex: log.logIndex,
            from: getAddress(args.from),
            to: getAddress(args.to),
            tag: null,
            currency: ticker,
            amount: args.value,
            blockHeight: ref.height,
            seenAt: ref.time,
          });
        }
        transfers.sort((x, y) => x.blockHeight! - y.blockHeight!);
        return { blocks, transfers };
      }),

    // The public mempool of EVM chains is partial (private order flow) and short-lived: payments
    // are seen at their block.
    mempool: async () => [],
  };
}

function describe(error: unknown): string {
  if (error instanceof BaseError) {
    // shortMessage and details leave out the URL and the request body that `message` carries.
    const details = error.details && !/https?:\/\//.test(error.details) ? `: ${error.details}` : '';
    return `${error.shortMessage}${details}`;
  }
  return (error as Error)?.message ?? String(error);
}
