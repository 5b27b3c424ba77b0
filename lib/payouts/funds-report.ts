import 'server-only';
import { findCurrency, findNetwork } from '../catalog';
import type { Queryable } from '../db';
import { formatUnits } from '../money';
import type { FundsHeld, GasLeft, Mode } from '../protocol';
import { fundsOf } from './collections';
import { gasLeftReport } from './gas-left';
import { treasuryOf } from './treasury';

/**
 * What the merchant's deposit addresses hold in `mode`, as `funds/list` answers it and the Funds page
 * shows it: `fundsOf`'s lines in the coin's decimals, each with its network's treasury.
 */
export async function fundsReport(db: Queryable, merchantId: string, mode: Mode): Promise<FundsHeld[]> {
  const lines = await fundsOf(db, merchantId, mode);
  return Promise.all(
    lines.map(async (line) => {
      const network = findNetwork(line.network);
      const decimals = (network && findCurrency(network, line.currency)?.decimals) ?? 0;
      return {
        network: line.network,
        currency: line.currency,
        total: formatUnits(line.total, decimals),
        addresses: line.addresses,
        outputs: line.outputs,
        estimatedCost: line.estimatedCost === null ? null : formatUnits(line.estimatedCost, decimals),
        feeRate: line.feeRate?.toString() ?? null,
        costPerAddress: line.costPerAddress === null ? null : inNativeCoin(line.network, line.costPerAddress),
        treasury: await treasuryOf(db, merchantId, line.network, mode),
      };
    }),
  );
}

/**
 * The gas fund-then-transfer left per EVM network, as `funds/list` answers it: the Funds page's own
 * lines (`gasLeftReport`, the same node reads under the same rules) in the coin's decimals. A node
 * that does not answer leaves the line's figures out (`read: false`), never the answer.
 */
export async function gasLeftOnWire(db: Queryable, merchantId: string, mode: Mode): Promise<GasLeft[]> {
  return (await gasLeftReport(db, merchantId, mode)).map(({ network, currency, addresses, ...read }) => {
    const decimals = findNetwork(network)?.currencies.find((c) => !c.contract)?.decimals ?? 18;
    const figures =
      read.left === null || read.costPerAddress === null || read.worthReturning === null
        ? { read: false, left: null, costPerAddress: null, worthReturning: null }
        : {
            read: true,
            left: formatUnits(read.left, decimals),
            costPerAddress: inNativeCoin(network, read.costPerAddress),
            worthReturning: read.worthReturning,
          };
    return { network, currency, addresses, ...figures };
  });
}

/** `amount` base units of `networkName`'s own coin, as the wire writes amounts. */
function inNativeCoin(networkName: string, amount: bigint): { amount: string; currency: string } {
  const coin = findNetwork(networkName)?.currencies.find((c) => !c.contract);
  return { amount: formatUnits(amount, coin?.decimals ?? 18), currency: coin?.ticker ?? '' };
}
