import 'server-only';
/**
 * The gas a fund-then-transfer left on EVM deposit addresses (docs/decisions/113). The gas payer
 * funds an address with the gas its token transfer may use at the plan's fee cap; what the
 * transfer did not use stays there, in the network's coin. The watcher recorded the fund as a
 * transfer in from the gas payer: those rows, not collected and in no open plan, are the gas left.
 * The Funds page shows them as a line of their own (what the node says is left, and whether its
 * return would cost more than it holds); the next EVM token plan sends back what is worth it.
 */
import type { Network } from '../catalog';
import { evmCollectionNode, liveChainConfig, networkFor } from '../chains';
import { leftGasReturn, ownTransferFee } from '../chains/evm/transactions';
import { addresses, chainTransfers, collectionPlanInputs, collectionPlans, param, sql, statement } from '../db';
import type { Queryable } from '../db';
import { formatUnits } from '../money';
import type { Mode } from '../protocol';
import type { AccountDeposit } from './account-deposits';

/**
 * A transfer in sent by the gas payer of one of the merchant's EVM plans of its network: a fund
 * (no payment). Shared with the Funds lines, which leave these rows out (./collections.ts).
 */
export const SENT_BY_A_GAS_PAYER = sql`exists (select 1 from ${collectionPlans}
    where ${collectionPlans.merchantId} = ${chainTransfers.merchantId} and ${collectionPlans.mode} = ${chainTransfers.mode}
      and ${collectionPlans.network} = ${chainTransfers.network} and ${collectionPlans.format} = 'evm'
      and lower(${collectionPlans.body}->'gasPayer'->>'address') = lower(${chainTransfers.sender}))`;

const GAS_LEFT = statement<
  AccountDeposit & { network: string },
  { merchantId: string; mode: Mode; network: string | null }
>(sql`select ${chainTransfers.id} as id, ${chainTransfers.network} as network, ${addresses.address} as address,
    ${addresses.derivationIndex} as derivation_index, ${addresses.kind} as kind, ${chainTransfers.amount}::text as amount
  from ${chainTransfers} join ${addresses} on ${addresses.id} = ${chainTransfers.addressId}
  where ${chainTransfers.merchantId} = ${param('merchantId')} and ${chainTransfers.mode} = ${param('mode')}
    and (${param('network')}::text is null or ${chainTransfers.network} = ${param('network')}::text)
    and ${chainTransfers.spentByTx} is null and ${chainTransfers.dropped} = false and ${chainTransfers.blockHeight} is not null
    and ${addresses.derivationIndex} >= 0 and ${SENT_BY_A_GAS_PAYER}
    and not exists (select 1 from ${collectionPlanInputs} where ${collectionPlanInputs.transferId} = ${chainTransfers.id} and ${collectionPlanInputs.open})
  order by ${chainTransfers.network}, ${addresses.derivationIndex}, ${chainTransfers.id}`);

/** The gas payers' funds of `network` (all EVM networks when null) not collected, grouped by network then address. */
export async function gasLeftRows(
  db: Queryable,
  query: { merchantId: string; mode: Mode; network: string | null },
): Promise<Map<string, Map<string, AccountDeposit[]>>> {
  const byNetwork = new Map<string, Map<string, AccountDeposit[]>>();
  for (const row of await GAS_LEFT.run(db, query)) {
    const byAddress = byNetwork.get(row.network) ?? new Map<string, AccountDeposit[]>();
    byAddress.set(row.address, [
      ...(byAddress.get(row.address) ?? []),
      { ...row, derivation_index: Number(row.derivation_index) },
    ]);
    byNetwork.set(row.network, byAddress);
  }
  return byNetwork;
}

/** One network's gas left, as the Funds page shows it. */
export interface GasLeftLine {
  network: string;
  /** The network's coin. */
  currency: string;
  addresses: number;
  /** What the node says those addresses hold now, base units; null when none answered (test mode has none). */
  left: bigint | null;
  /** What sending one address's coin back costs at the fee cap a plan would carry now; null without the node. */
  costPerAddress: bigint | null;
  /** Of `addresses`, those holding more than that cost: the next token plan sends theirs back. */
  worthReturning: number | null;
}

/** The gas left per EVM network of the merchant in `mode` (live: the node has the balances). */
export async function gasLeftReport(db: Queryable, merchantId: string, mode: Mode): Promise<GasLeftLine[]> {
  const lines: GasLeftLine[] = [];
  for (const [name, byAddress] of await gasLeftRows(db, { merchantId, mode, network: null })) {
    const network = networkFor(mode, name);
    const cfg = liveChainConfig(name);
    if (!network || network.family !== 'evm') continue;
    const currency = network.currencies.find((c) => !c.contract)!.ticker;
    const read = mode === 'live' && cfg ? await balancesOf(network, cfg, [...byAddress.keys()]) : null;
    lines.push({
      network: name,
      currency,
      addresses: byAddress.size,
      left: read && read.balances.reduce((sum, b) => sum + b, 0n),
      costPerAddress: read && ownTransferFee(read.maxFeePerGas),
      worthReturning: read && read.balances.filter((b) => leftGasReturn(b, read.maxFeePerGas) !== null).length,
    });
  }
  return lines;
}

async function balancesOf(
  network: Network,
  cfg: NonNullable<ReturnType<typeof liveChainConfig>>,
  list: string[],
): Promise<{ balances: bigint[]; maxFeePerGas: bigint } | null> {
  const node = evmCollectionNode(network, cfg);
  try {
    const [holdings, fees] = await Promise.all([
      node.holdings(
        list.map((address) => ({ address, path: '', personal: false })),
        [],
      ),
      node.fees(),
    ]);
    return { balances: holdings.map((h) => h.native), maxFeePerGas: fees.maxFeePerGas };
  } catch {
    // The node is away: the page says so; nothing else waits on it.
    return null;
  }
}

/** A gas-left line in words, for the Funds page: what is left, what returning it costs, and whether it is worth it. */
export function gasLeftSummary(line: GasLeftLine, decimals: number): string {
  const coin = (amount: bigint) => `${formatUnits(amount, decimals)} ${line.currency}`;
  const where = `on ${line.addresses} ${line.addresses === 1 ? 'address' : 'addresses'}`;
  if (line.left === null || line.costPerAddress === null || line.worthReturning === null)
    return `${line.network}: gas left ${where} by fund-then-transfer collections (no node answered for their balances)`;
  const worth =
    line.worthReturning === 0
      ? 'each holds less: collecting it would cost more than it holds, so it stays'
      : `${line.worthReturning} of them ${line.worthReturning === 1 ? 'holds' : 'hold'} more: the next token plan sends it back to the treasury`;
  return `${line.network}: ${coin(line.left)} of gas left ${where} by fund-then-transfer collections; sending one address's back costs at most ${coin(line.costPerAddress)}; ${worth}`;
}
