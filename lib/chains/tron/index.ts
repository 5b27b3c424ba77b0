import 'server-only';
/**
 * The ChainAdapter of Tron over a java-tron full node's HTTP API (or TronGrid's, the same API).
 * Watch-only: deposit addresses derive from the merchant's extended public key (./address).
 *
 * - The node (./node): one URL, TRON-PRO-API-KEY when configured, every answer parsed (./answers).
 * - Each configured token contract must answer `decimals()` (`/wallet/triggerconstantcontract`)
 *   with its catalog token's, checked once before the first scan.
 * - Head: the newest block (`/wallet/getblock`, header only), or with `TRON_CONFIRMATIONS=solid`
 *   the newest solidified one (`/walletsolidity/getblock`): then a payment is seen once final, and
 *   one confirmation is all it needs.
 * - The head is taken `headLag` blocks back (`TRON_HEAD_LAG`, 1 by default): a load-balanced
 *   provider may answer a block before its execution results are there.
 * - Scan: `/wallet/getblockbylimitnext` (up to 100 blocks a request) for the blocks and their TRX
 *   transfers, and `/wallet/gettransactioninfobyblocknum` for each block that runs contract code,
 *   for the receipts and Transfer logs of the configured tokens (./transfers).
 * - Each scanned block must build on the one before (parentHash), every execution result must
 *   belong to a transaction of the block scanned at its height, and every transaction of the block
 *   that runs contract code must have its result: an answer without them (`[]` or `{}` from a
 *   results backend behind the blocks, or a node that pruned them) would scan the block clean
 *   and lose its token payments for good. Otherwise the step fails and is retried on the next
 *   pass (docs/decisions/033). Reorganisations are found by the watcher from block ids (block(height)).
 * - No mempool: java-tron exposes no address-indexed pending pool, and blocks come every 3 s.
 * Calls per block do not depend on the watched addresses: the node is never asked about them.
 */
import type { Network } from '../../catalog';
import { envPrefix, type LiveChainConfig } from '../../config';
import type { BlockRef, ChainTransfer } from '../adapter';
import type { LiveAdapter } from '../live-adapter';
import { tronAddressHash } from './address';
import { blockOrNone, blockRange, constantCall, transactionInfoOrNone, transactionInfos, type Block } from './answers';
import { tronFoundTransaction } from './lookup';
import { TronNode, TronNodeError } from './node';
import { blockRef, contractCalls, tokenTransfers, trxTransfers } from './transfers';

export { isValidTronAddress } from './address';
export { tronNodeChainId } from './chain-id';

/** Most blocks /wallet/getblockbylimitnext answers at once (java-tron's BLOCK_LIMIT_NUM). */
const RANGE_LIMIT = 100;

export function tronAdapter(network: Network, cfg: LiveChainConfig): LiveAdapter {
  const node = new TronNode(cfg.rpc, network.name, cfg.apiKey);
  const native = network.currencies.find((c) => !c.contract)!.ticker;
  const contracts = new Map(
    network.currencies.filter((c) => c.contract).map((c) => [tronAddressHash(c.contract!), c.ticker]),
  );

  const guard = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof TronNodeError) throw error;
      throw new TronNodeError(`${node.label}: ${what} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  };

  async function blockAt(height: number | 'head' | 'solid'): Promise<BlockRef | null> {
    const path = height === 'solid' ? 'walletsolidity/getblock' : 'wallet/getblock';
    const body = typeof height === 'number' ? { id_or_num: String(height), detail: false } : { detail: false };
    const found = await node.post(path, body, blockOrNone);
    if (found && typeof height === 'number' && found.block_header.raw_data.number !== height) {
      throw new TronNodeError(`${node.label} answered block ${found.block_header.raw_data.number} for block ${height}`);
    }
    return found && blockRef(found);
  }

  /**
   * Throws unless every configured token contract answers `decimals()` with its catalog token's:
   * amounts are read in the catalog's base units, so a contract of other decimals configured by
   * mistake would credit far too much or too little. The message names the variable.
   */
  async function checkTokenDecimals(): Promise<void> {
    const variable = `${envPrefix(network)}_TOKENS`;
    for (const token of network.currencies.filter((c) => c.contract)) {
      const answer = await node.post(
        'wallet/triggerconstantcontract',
        {
          owner_address: token.contract,
          contract_address: token.contract,
          function_selector: 'decimals()',
          parameter: '',
          visible: true,
        },
        constantCall,
      );
      const word = answer.constant_result[0];
      if (answer.result.result !== true || !word || !/^[0-9a-fA-F]{64}$/.test(word)) {
        const reason = answer.result.message ? Buffer.from(answer.result.message, 'hex').toString('utf8') : 'no result';
        throw new TronNodeError(
          `${node.label}: ${variable}: ${token.ticker} at ${token.contract} does not answer decimals() (${answer.result.code ?? 'no code'}: ${reason.slice(0, 120)}): is it the token's contract?`,
        );
      }
      const decimals = BigInt(`0x${word}`);
      if (decimals !== BigInt(token.decimals)) {
        throw new TronNodeError(
          `${node.label}: ${variable}: ${token.ticker} at ${token.contract} has ${decimals} decimals; ${token.ticker} on ${network.name} has ${token.decimals}`,
        );
      }
    }
  }
  let decimalsChecked = false;

  async function head(): Promise<BlockRef> {
    // Before the first scan: asked until it has passed once.
    if (!decimalsChecked) {
      await checkTokenDecimals();
      decimalsChecked = true;
    }
    const tip = await blockAt(cfg.solidified ? 'solid' : 'head');
    if (!tip) throw new TronNodeError(`${node.label} has no ${cfg.solidified ? 'solidified ' : ''}block yet`);
    if (cfg.headLag === 0) return tip;
    const height = Math.max(0, tip.height - cfg.headLag);
    const ref = await blockAt(height);
    if (!ref) throw new TronNodeError(`${node.label}: block ${height} vanished under the head`);
    return ref;
  }

  async function fullBlocks(from: number, to: number): Promise<Block[]> {
    const blocks: Block[] = [];
    for (let start = from; start <= to; start += RANGE_LIMIT) {
      const end = Math.min(to, start + RANGE_LIMIT - 1);
      const { block } = await node.post('wallet/getblockbylimitnext', { startNum: start, endNum: end + 1 }, blockRange);
      blocks.push(...[...block].sort((a, b) => a.block_header.raw_data.number - b.block_header.raw_data.number));
    }
    return blocks;
  }

  async function scan(from: number, to: number): Promise<{ blocks: BlockRef[]; transfers: ChainTransfer[] }> {
    const full = await fullBlocks(from, to);
    const blocks: BlockRef[] = [];
    const transfers: ChainTransfer[] = [];
    for (const [i, block] of full.entries()) {
      const ref = blockRef(block);
      if (ref.height !== from + i)
        throw new TronNodeError(`${node.label} answered block ${ref.height} where block ${from + i} was expected`);
      const previous = blocks[blocks.length - 1];
      if (previous && ref.parentHash !== previous.hash)
        throw new TronNodeError(`${node.label}: the chain changed during the scan at block ${ref.height}`);
      blocks.push(ref);
      transfers.push(...trxTransfers(block, ref, native, node.label));
      const calls = contractCalls(block);
      if (contracts.size === 0 || calls.size === 0) continue;
      const infos = await node.post('wallet/gettransactioninfobyblocknum', { num: ref.height }, transactionInfos);
      const ids = new Set(block.transactions.map((tx) => tx.txID.toLowerCase()));
      if (infos.some((info) => info.blockNumber !== ref.height || !ids.has(info.id.toLowerCase()))) {
        throw new TronNodeError(
          `${node.label}: execution results of block ${ref.height} are from another chain than its block`,
        );
      }
      const answered = new Set(infos.map((info) => info.id.toLowerCase()));
      const missing = [...calls].filter((id) => !answered.has(id)).length;
      if (missing > 0) {
        throw new TronNodeError(
          `${node.label}: execution results of block ${ref.height} lack ${missing} of its ${calls.size} contract calls (results behind the blocks, or pruned)`,
        );
      }
      transfers.push(...tokenTransfers(infos, ref, contracts));
    }
    // Blocks above the node's head are not answered: the watcher scans to the head it read, so a
    // short answer means the node went back (a reorganisation or another node behind a balancer).
    if (blocks.length !== to - from + 1)
      throw new TronNodeError(`${node.label} answered ${blocks.length} of blocks ${from}-${to}`);
    return { blocks, transfers };
  }

  return {
    network,
    // The live network carries its configured count (requiredConfirmations('live', network), ../networks).
    requiredConfirmations: network.confirmations,
    stats: node.stats,
    head: () => guard('reading the head', head),
    block: (height) => guard(`reading block ${height}`, () => blockAt(height)),
    scan: (from, to) => guard(`scanning blocks ${from}-${to}`, () => scan(from, to)),
    mempool: async () => [],
    transaction: (txHash) =>
      guard(`looking up transaction ${txHash}`, async () => {
        const info = await node.post('wallet/gettransactioninfobyid', { value: txHash }, transactionInfoOrNone);
        if (!info) return null;
        const found = await node.post(
          'wallet/getblock',
          { id_or_num: String(info.blockNumber), detail: true },
          blockOrNone,
        );
        if (!found) return null;
        return tronFoundTransaction(info, found, (await head()).height, native, contracts, node.label);
      }),
  };
}
