import 'server-only';
/**
 * Token payments: `Transfer` logs from eth_getLogs filtered by the configured contracts only:
 * anyone can emit a Transfer event, so a log from any other contract never credits. Each contract
 * must answer `decimals()` with its catalog token's before anything is read. A log exists
 * only in a successful transaction. A range the node refuses as too large is halved until it is
 * accepted.
 */
import { decodeEventLog, getAddress, parseAbiItem, type Log, type PublicClient } from 'viem';
import type { Network } from '../../catalog';
import { envPrefix } from '../../config';
import type { BlockRef, ChainTransfer } from '../adapter';
import { describeError, EvmNodeError } from './node';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** The Transfer event's topic 0: keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

type TransferLog = Log<bigint, number, false, typeof TRANSFER, true>;

/** What nodes answer for an eth_getLogs range they will not serve (geth, erigon, Alchemy, Infura, BSC...). */
const RANGE_REFUSED = /range|too many|too large|limit|exceed|timeout|10000 results|response size/i;

/** The network's token contracts (lower case) -> ticker: the configured ones of a live network. */
export function tokenContracts(network: Network): ReadonlyMap<string, string> {
  return new Map(network.currencies.filter((c) => c.contract).map((c) => [c.contract!.toLowerCase(), c.ticker]));
}

const DECIMALS = parseAbiItem('function decimals() view returns (uint8)');

/**
 * Throws unless every configured token contract of `network` answers `decimals()` with its catalog
 * token's decimals: amounts are read in the catalog's base units (every serializer, the payment
 * page and the order's amount agree on them), so a contract of other decimals, configured by
 * mistake in `<NETWORK>_TOKENS`, would credit a thousand or a trillion times too much or too
 * little. The message names the variable.
 */
export async function checkTokenDecimals(client: PublicClient, network: Network, label: string): Promise<void> {
  const variable = `${envPrefix(network)}_TOKENS`;
  for (const token of network.currencies.filter((c) => c.contract)) {
    const address = token.contract as `0x${string}`;
    let decimals: number;
    try {
      decimals = await client.readContract({ address, abi: [DECIMALS], functionName: 'decimals' });
    } catch (error) {
      throw new EvmNodeError(
        `${label}: ${variable}: ${token.ticker} at ${address} does not answer decimals() (${describeError(error)}): is it the token's contract?`,
      );
    }
    if (decimals !== token.decimals) {
      throw new EvmNodeError(
        `${label}: ${variable}: ${token.ticker} at ${address} has ${decimals} decimals; ${token.ticker} on ${network.name} has ${token.decimals}`,
      );
    }
  }
}

/** Transfer logs of `contracts` in blocks `from`..`to`, at most `blockRange` blocks per request. */
export async function transferLogs(
  client: PublicClient,
  contracts: ReadonlyMap<string, string>,
  from: number,
  to: number,
  blockRange: number,
): Promise<TransferLog[]> {
  if (contracts.size === 0) return [];
  const ranges: [number, number][] = [];
  for (let start = from; start <= to; start += blockRange) ranges.push([start, Math.min(to, start + blockRange - 1)]);
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
      if (a === b || !RANGE_REFUSED.test(describeError(error))) throw error;
      const mid = Math.floor((a + b) / 2);
      ranges.unshift([a, mid], [mid + 1, b]);
    }
  }
  return logs;
}

/**
 * The token payments among `logs`. Every log must belong to the block scanned at its height
 * (`byHeight`), else the chain moved between the two reads and the scan is retried (an
 * EvmNodeError naming the node, `label`).
 *
 * A transfer's output index is the position, from 1, of its log among its transaction's Transfer
 * logs of the configured contracts (0 is the transaction's native transfer, ./blocks). The log's
 * own `logIndex` counts across the block, so a transaction re-mined in another block by a
 * reorganisation would come back as a second transfer: an orphan deposit of money already
 * counted, or a payment made in time turned late (docs/decisions/046). The position depends only
 * on the transaction and the configured contracts, and the filtered eth_getLogs answer gives it.
 */
export function tokenTransfers(
  logs: readonly TransferLog[],
  contracts: ReadonlyMap<string, string>,
  byHeight: ReadonlyMap<number, BlockRef>,
  label: string,
): ChainTransfer[] {
  const transfers: ChainTransfer[] = [];
  const positions = new Map<string, number>();
  const inBlockOrder = [...logs].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex);
  for (const log of inBlockOrder) {
    const ref = byHeight.get(Number(log.blockNumber));
    if (!ref || log.blockHash !== ref.hash)
      throw new EvmNodeError(`${label}: logs of block ${log.blockNumber} are from another chain than its block`);
    if (log.removed) continue;
    const ticker = contracts.get(log.address.toLowerCase());
    if (!ticker) continue; // the node ignored the address filter: never credit another contract
    const { args } = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics, strict: true });
    // Counted before the zero check: a zero-value Transfer is still a log of the transaction.
    const tx = log.transactionHash.toLowerCase();
    const position = (positions.get(tx) ?? 0) + 1;
    positions.set(tx, position);
    if (args.value <= 0n) continue;
    transfers.push({
      txHash: log.transactionHash,
      outputIndex: position,
      from: getAddress(args.from),
      to: getAddress(args.to),
      tag: null,
      currency: ticker,
      amount: args.value,
      blockHeight: ref.height,
      seenAt: ref.time,
    });
  }
  return transfers;
}
