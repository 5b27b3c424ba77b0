import 'server-only';
/**
 * The coin an EIP-7702 sweep moved (docs/decisions/122). The sweeper sends a delegated address's
 * tokens and then its whole native balance to the treasury, the coin by an internal call: no
 * top-level transfer the watcher would see. Its token transfer to the treasury is seen, and proves
 * the sweep ran for that address (sweeping the coin comes after the tokens, in the same call, and a
 * failure undoes both). So each such transfer spends the address's coin rows the watcher recorded
 * before it: those of earlier blocks always; those of the sweep's own block when the node says the
 * address held nothing at that block's end (a payment in the same block may have come after the
 * sweep; the node's balance tells). The rows are spent by the sweep's transaction at its height,
 * as a collected deposit is (`spent_by_tx`), so a reorganisation below it undoes them like any
 * spend, and the Funds line of the coin and the gas-left line leave them.
 */
import type { Network } from '../catalog';
import type { ChainTransfer } from '../chains';
import { evmCollectionNode, liveChainConfig } from '../chains';
import { addresses, bare, chainTransfers, param, sql, statement, unnest, type Queryable } from '../db';
import type { Mode } from '../protocol';
import { OPEN_EVM_PLANS } from './account-collections';

/** A swept address's token transfer to the treasury, and what the node says it held at that block's end (null: no answer). */
export interface SweptCoin {
  address: string;
  txHash: string;
  height: number;
  balanceAfter: bigint | null;
}

/**
 * The scanned token transfers that a `sweep` item of an open EVM plan sent to the plan's treasury,
 * each with the address's balance at its block, read before the step's transaction opens. A node
 * that does not answer leaves the balance null: the rows of earlier blocks are spent all the same.
 */
export async function sweptCoinSightings(
  db: Queryable,
  network: Network,
  mode: Mode,
  transfers: readonly ChainTransfer[],
): Promise<SweptCoin[]> {
  const cfg = mode === 'live' && network.family === 'evm' ? liveChainConfig(network.name) : undefined;
  const coin = network.currencies.find((c) => !c.contract)?.ticker;
  const out = transfers.filter((t) => t.from !== null && t.blockHeight !== null && t.currency !== coin);
  if (!cfg || out.length === 0) return [];
  const swept = new Set<string>();
  for (const { body } of await OPEN_EVM_PLANS.run(db, { network: network.name, mode }))
    for (const item of body.items)
      if (item.method === 'sweep') swept.add(`${item.address}>${body.treasury}`.toLowerCase());
  const sightings = new Map<string, SweptCoin>();
  for (const t of out)
    if (swept.has(`${t.from}>${t.to}`.toLowerCase()))
      sightings.set(`${t.from!.toLowerCase()}:${t.txHash}`, {
        address: t.from!,
        txHash: t.txHash,
        height: t.blockHeight!,
        balanceAfter: null,
      });
  if (sightings.size === 0) return [];
  const node = evmCollectionNode(network, cfg);
  try {
    for (const s of sightings.values()) s.balanceAfter = await node.balanceAt(s.address, s.height);
  } catch {
    // The node is away: the sweep's own block keeps its rows until the address is swept again.
  }
  return [...sightings.values()];
}

const SWEPT = unnest('s', { address: 'text', tx_hash: 'text', block_height: 'bigint', emptied: 'boolean' });
const s = SWEPT.ref;
const SPEND_SWEPT_COIN = statement<unknown, { network: string; mode: Mode; coin: string }>(sql`update ${chainTransfers}
    set ${bare(chainTransfers.spentByTx)} = ${s.tx_hash}, ${bare(chainTransfers.spentAtHeight)} = ${s.block_height}
   from ${SWEPT.from}, ${addresses}
  where ${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.currency} = ${param('coin')} and ${chainTransfers.spentByTx} is null and ${chainTransfers.dropped} = false
    and ${addresses.id} = ${chainTransfers.addressId} and lower(${addresses.address}) = lower(${s.address})
    and (${chainTransfers.blockHeight} < ${s.block_height} or (${chainTransfers.blockHeight} = ${s.block_height} and ${s.emptied}))`);

/** In a watcher step of an EVM network, before its plans move: the coin each sighted sweep moved leaves the records. */
export async function spendSweptCoin(
  tx: Queryable,
  network: Network,
  mode: Mode,
  sightings: readonly SweptCoin[],
): Promise<void> {
  if (network.family !== 'evm' || sightings.length === 0) return;
  await SPEND_SWEPT_COIN.run(tx, {
    network: network.name,
    mode,
    coin: network.currencies.find((c) => !c.contract)!.ticker,
    ...SWEPT.values(
      sightings.map((x) => ({
        address: x.address,
        tx_hash: x.txHash,
        block_height: x.height,
        emptied: x.balanceAfter === 0n,
      })),
    ),
  });
}
