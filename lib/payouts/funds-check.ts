import 'server-only';
/**
 * Funds checked against the node on demand (issue 35 item 2, docs/collections.md "Funds"): every
 * deposit output the watcher recorded as held (in a block, not spent by a scanned block) is asked
 * of the network's node (`gettxout`); an output the node says is spent or unknown, or holds
 * another amount, is a difference. On EVM and Tron (docs/decisions/122) an address holds a balance,
 * not outputs: what the records say each address holds of a currency (its rows not collected, less
 * what was spent of them in part) is compared with its balance on the node, and an address whose
 * balance is another is a difference. Nothing is changed: the watcher stays the one that records.
 */
import { findCurrency, findNetwork, type Network } from '../catalog';
import { collectionNodeOf, evmCollectionNode, liveChainConfig, networkFor, tronCollectionNode } from '../chains';
import { isUtxoCoin } from '../chains/utxo/transactions';
import { addresses, chainTransfers, param, partialSpends, sql, statement, type Queryable } from '../db';
import { log } from '../log';
import { formatUnits } from '../money';
import type { FundsCheck, Mode } from '../protocol';

const HELD = statement<
  { network: string; currency: string; tx_hash: string; output_index: number; amount: string; address: string },
  { merchantId: string; mode: Mode }
>(sql`select ${chainTransfers.network} as network, ${chainTransfers.currency} as currency, ${chainTransfers.txHash} as tx_hash,
    ${chainTransfers.outputIndex} as output_index, ${addresses.address} as address,
    (${chainTransfers.amount} - coalesce((select sum(${partialSpends.amount}) from ${partialSpends}
      where ${partialSpends.transferId} = ${chainTransfers.id}), 0))::text as amount
  from ${chainTransfers} join ${addresses} on ${addresses.id} = ${chainTransfers.addressId}
  where ${chainTransfers.merchantId} = ${param('merchantId')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.spentByTx} is null and ${chainTransfers.dropped} = false and ${chainTransfers.blockHeight} is not null
  order by ${chainTransfers.network}, ${chainTransfers.currency}, ${chainTransfers.blockHeight}, ${chainTransfers.txHash}, ${chainTransfers.outputIndex}`);

/** What the merchant's recorded deposit outputs of `mode` look like to each network's node, per network and currency. */
export async function checkFundsAgainstNode(db: Queryable, merchantId: string, mode: Mode): Promise<FundsCheck[]> {
  const rows = await HELD.run(db, { merchantId, mode });
  const lines = new Map<string, typeof rows>();
  for (const row of rows)
    lines.set(`${row.network}:${row.currency}`, [...(lines.get(`${row.network}:${row.currency}`) ?? []), row]);
  const checks: FundsCheck[] = [];
  const accountLines = new Map<string, (typeof rows)[]>();
  for (const outputs of lines.values()) {
    const { network, currency } = outputs[0]!;
    const family = findNetwork(network)?.family;
    if (family === 'evm' || family === 'tron') {
      accountLines.set(network, [...(accountLines.get(network) ?? []), outputs]);
      continue;
    }
    if (!isUtxoCoin(network)) continue;
    const decimals = findCurrency(findNetwork(network)!, currency)?.decimals ?? 8;
    const node = mode === 'live' ? collectionNodeOf(liveChainConfig(network)) : undefined;
    const line = { network, currency, outputs: outputs.length };
    if (!node) {
      checks.push({
        ...line,
        checked: false,
        reason: 'test mode: the sandbox ledger is what the watcher reads, there is no node to ask',
        differences: [],
      });
      continue;
    }
    let atNode: (bigint | null)[];
    try {
      atNode = await node.unspentOutputs(
        outputs.map((o) => ({ txid: o.tx_hash, vout: o.output_index })),
        decimals,
      );
    } catch (error) {
      // The node's address is the operator's: the caller learns only that it did not answer (the log has why).
      log.warn('funds check: the node did not answer', { network, error });
      checks.push({
        ...line,
        checked: false,
        reason: `the ${network} node did not answer: try again`,
        differences: [],
      });
      continue;
    }
    checks.push({
      ...line,
      checked: true,
      reason: null,
      differences: outputs.flatMap((o, i) =>
        atNode[i] === BigInt(o.amount)
          ? []
          : [
              {
                txid: o.tx_hash,
                vout: o.output_index,
                address: o.address,
                recorded: formatUnits(BigInt(o.amount), decimals),
                atNode: atNode[i] === null ? null : formatUnits(atNode[i]!, decimals),
              },
            ],
      ),
    });
  }
  // The network as configured: its tokens' contracts are the ones the watcher reads.
  for (const [name, currencyLines] of accountLines)
    checks.push(...(await checkAccountNetwork(networkFor(mode, name) ?? findNetwork(name)!, mode, currencyLines)));
  return checks.sort((a, b) => a.network.localeCompare(b.network) || a.currency.localeCompare(b.currency));
}

type HeldRow = Awaited<ReturnType<typeof HELD.run>>[number];

/**
 * An EVM or Tron network's lines (one per currency, its rows): per address, what the rows say it
 * holds against its balance on the node (the adapters' own reads, with their failover), one read
 * of every address for all the network's currencies. A node that does not answer leaves every line
 * unchecked, never the answer.
 */
async function checkAccountNetwork(network: Network, mode: Mode, currencyLines: HeldRow[][]): Promise<FundsCheck[]> {
  const recorded = currencyLines.map((rows) => {
    const byAddress = new Map<string, bigint>();
    for (const row of rows) byAddress.set(row.address, (byAddress.get(row.address) ?? 0n) + BigInt(row.amount));
    return { network: network.name, currency: rows[0]!.currency, outputs: rows.length, byAddress };
  });
  const unchecked = (reason: string): FundsCheck[] =>
    recorded.map(({ network, currency, outputs }) => ({
      network,
      currency,
      outputs,
      checked: false,
      reason,
      differences: [],
    }));
  const cfg = mode === 'live' ? liveChainConfig(network.name) : undefined;
  if (!cfg) return unchecked('test mode: the sandbox ledger is what the watcher reads, there is no node to ask');
  const currencies = recorded.flatMap((line) => findCurrency(network, line.currency) ?? []);
  // A token no longer configured has no contract to ask: nothing of the network is checked then.
  if (currencies.length < recorded.length)
    return unchecked(`${network.name} is not configured with every currency recorded on it`);
  const holders = [...new Set(recorded.flatMap((line) => [...line.byAddress.keys()]))];
  let atNode: Map<string, Map<string, bigint>>;
  try {
    atNode = await accountBalances(network, cfg, holders, currencies);
  } catch (error) {
    log.warn('funds check: the node did not answer', { network: network.name, error });
    return unchecked(`the ${network.name} node did not answer: try again`);
  }
  return recorded.map(({ currency, outputs, byAddress }) => {
    const decimals = findCurrency(network, currency)!.decimals;
    return {
      network: network.name,
      currency,
      outputs,
      checked: true,
      reason: null,
      differences: [...byAddress].flatMap(([address, amount]) => {
        const held = atNode.get(address)?.get(currency) ?? 0n;
        return held === amount
          ? []
          : [
              {
                txid: null,
                vout: null,
                address,
                recorded: formatUnits(amount, decimals),
                atNode: formatUnits(held, decimals),
              },
            ];
      }),
    };
  });
}

/** What the node says each of `holders` holds of each of `currencies`, base units by address then ticker. */
async function accountBalances(
  network: Network,
  cfg: NonNullable<ReturnType<typeof liveChainConfig>>,
  holders: string[],
  currencies: Network['currencies'],
): Promise<Map<string, Map<string, bigint>>> {
  const balances = new Map<string, Map<string, bigint>>();
  const tokens = currencies.filter((c) => c.contract);
  const coin = currencies.find((c) => !c.contract);
  if (network.family === 'evm') {
    const holdings = await evmCollectionNode(network, cfg).holdings(
      holders.map((address) => ({ address, path: '', personal: false })),
      tokens.map((t) => t.contract!),
    );
    holders.forEach((address, i) => {
      const h = holdings[i]!;
      balances.set(
        address,
        new Map([
          ...(coin ? ([[coin.ticker, h.native]] as const) : []),
          ...tokens.map((t) => [t.ticker, h.tokens.get(t.contract!.toLowerCase()) ?? 0n] as const),
        ]),
      );
    });
    return balances;
  }
  const node = tronCollectionNode(cfg);
  for (const address of holders) {
    const held = new Map<string, bigint>();
    if (coin) held.set(coin.ticker, await node.trxBalance(address));
    for (const t of tokens) held.set(t.ticker, await node.tokenBalance(t.contract!, address));
    balances.set(address, held);
  }
  return balances;
}
