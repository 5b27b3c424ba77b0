import 'server-only';
/**
 * Funds checked against the node on demand (issue 35 item 2, docs/collections.md "Funds"): every
 * deposit output the watcher recorded as held (in a block, not spent by a scanned block) is asked
 * of the network's node (`gettxout`); an output the node says is spent or unknown, or holds
 * another amount, is a difference. Nothing is changed: the watcher stays the one that records.
 */
import { findCurrency, findNetwork } from '../catalog';
import { collectionNodeOf, liveChainConfig } from '../chains';
import { isUtxoCoin } from '../chains/utxo/transactions';
import { addresses, chainTransfers, param, sql, statement, type Queryable } from '../db';
import { log } from '../log';
import { formatUnits } from '../money';
import type { FundsCheck, Mode } from '../protocol';

const HELD = statement<
  { network: string; currency: string; tx_hash: string; output_index: number; amount: string; address: string },
  { merchantId: string; mode: Mode }
>(sql`select ${chainTransfers.network} as network, ${chainTransfers.currency} as currency, ${chainTransfers.txHash} as tx_hash,
    ${chainTransfers.outputIndex} as output_index, ${chainTransfers.amount}::text as amount, ${addresses.address} as address
  from ${chainTransfers} join ${addresses} on ${addresses.id} = ${chainTransfers.addressId}
  where ${chainTransfers.merchantId} = ${param('merchantId')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.spentByTx} is null and ${chainTransfers.dropped} = false and ${chainTransfers.blockHeight} is not null
  order by ${chainTransfers.network}, ${chainTransfers.currency}, ${chainTransfers.blockHeight}, ${chainTransfers.txHash}, ${chainTransfers.outputIndex}`);

/** What the merchant's recorded deposit outputs of `mode` look like to each network's node, per network and currency. */
export async function checkFundsAgainstNode(db: Queryable, merchantId: string, mode: Mode): Promise<FundsCheck[]> {
  const rows = (await HELD.run(db, { merchantId, mode })).filter((row) => isUtxoCoin(row.network));
  const lines = new Map<string, typeof rows>();
  for (const row of rows)
    lines.set(`${row.network}:${row.currency}`, [...(lines.get(`${row.network}:${row.currency}`) ?? []), row]);
  const checks: FundsCheck[] = [];
  for (const outputs of lines.values()) {
    const { network, currency } = outputs[0]!;
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
  return checks;
}
