import 'server-only';
/**
 * The ChainAdapter of the EVM networks (ethereum, bsc, polygon, arbitrum, base) over a node's
 * JSON-RPC, with viem. Watch-only: deposit addresses derive from the merchant's extended public key.
 *
 * - The node (./node): the connection, what it is asked, its errors, its chain id.
 * - Native coin (./blocks): the value of each block transaction (getBlock with transactions), only
 *   when its receipt has status 1.
 * - Tokens (./tokens): `Transfer` logs of the configured contracts only, each of which must answer
 *   `decimals()` with the catalog token's (checked once, with the chain id, before the first scan).
 * - The watcher stays `headLag` blocks behind the node's head: some nodes answer incomplete logs
 *   for the newest blocks without an error.
 * - Each scanned block must build on the one before (parent hash) and every log must belong to the
 *   block scanned at its height; otherwise the chain moved during the scan and the step is retried.
 * - No mempool: the public mempool of EVM chains is partial (private order flow) and short-lived,
 *   so payments are seen at their block.
 * Calls per block do not depend on the watched addresses: the node is never asked about them.
 */
import type { Network } from '../../catalog';
import type { LiveChainConfig } from '../../config';
import type { BlockRef, ChainTransfer } from '../adapter';
import type { LiveAdapter } from '../live-adapter';
import { blockAt, blockRef, fullBlocks, nativeTransfers, receiptStatus } from './blocks';
import { evmAnswers, evmFoundTransaction } from './lookup';
import { EvmNodeError, evmNode } from './node';
import { checkTokenDecimals, tokenContracts, tokenTransfers, transferLogs } from './tokens';

export { evmNewHeads } from './new-heads';

export function evmAdapter(network: Network, cfg: LiveChainConfig): LiveAdapter {
  const node = evmNode(network, cfg);
  const contracts = tokenContracts(network);
  const native = network.currencies.find((c) => !c.contract)!.ticker;
  const succeeded = receiptStatus(node.client);
  let decimalsChecked = false;

  async function head(): Promise<BlockRef> {
    await node.checkChain();
    // With the chain id, before the first scan: asked until it has passed once.
    if (!decimalsChecked) {
      await checkTokenDecimals(node.client, network, node.label);
      decimalsChecked = true;
    }
    const tip = Number(await node.client.getBlockNumber({ cacheTime: 0 }));
    const ref = await blockAt(node.client, Math.max(0, tip - cfg.headLag));
    if (!ref) throw new EvmNodeError(`${node.label}: block ${tip - cfg.headLag} vanished under the head`);
    return ref;
  }

  async function scan(from: number, to: number): Promise<{ blocks: BlockRef[]; transfers: ChainTransfer[] }> {
    const [full, logs] = await Promise.all([
      fullBlocks(node.client, from, to),
      transferLogs(node.client, contracts, from, to, cfg.logBlockRange),
    ]);
    const blocks: BlockRef[] = [];
    const transfers: ChainTransfer[] = [];
    for (const block of full) {
      const ref = blockRef(block);
      const previous = blocks[blocks.length - 1];
      if (previous && ref.parentHash !== previous.hash)
        throw new EvmNodeError(`${node.label}: the chain changed during the scan at block ${ref.height}`);
      blocks.push(ref);
      transfers.push(...(await nativeTransfers(block, ref, native, succeeded)));
    }
    transfers.push(...tokenTransfers(logs, contracts, new Map(blocks.map((b) => [b.height, b])), node.label));
    transfers.sort((x, y) => x.blockHeight! - y.blockHeight!);
    return { blocks, transfers };
  }

  return {
    network,
    // The live network carries its configured count (requiredConfirmations('live', network), ../networks).
    requiredConfirmations: network.confirmations,
    stats: node.stats,
    head: () => node.guard('reading the head', head),
    block: (height) => node.guard(`reading block ${height}`, () => blockAt(node.client, height)),
    scan: (from, to) => node.guard(`scanning blocks ${from}-${to}`, () => scan(from, to)),
    mempool: async () => [],
    transaction: (txHash) =>
      node.guard(`looking up transaction ${txHash}`, async () => {
        await node.checkChain();
        const answers = await evmAnswers(node.client, txHash as `0x${string}`, cfg.headLag);
        return answers && evmFoundTransaction(answers, native, contracts, node.label);
      }),
  };
}
export { evmCollectionNode, type EvmCollectionNode } from './collect';
export { planFees, readHoldings } from './holdings';
