import type { Metadata } from 'next';
import { CELL, DataTable, EmptyState } from '@/components/dashboard/table';
import { Amount, Mono, PageTitle } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { fundsReport, gapLimitOf, type GapLimit } from '@/lib/payouts';
import { requirePage } from '../../session';

export const metadata: Metadata = { title: 'Funds' };

/** The gap limit a wallet importing the network's key would need; null for a network without one (a tag network). */
async function gapLimit(network: string, mode: 'live' | 'test'): Promise<GapLimit | null> {
  try {
    return await gapLimitOf(await getDatabase(), network, mode);
  } catch (error) {
    if (isDomainErrorOf(error, 'CollectionRefused')) return null;
    throw error;
  }
}

/**
 * What the deposit addresses hold (docs/collections.md, "Funds"): per network and currency, from
 * what the watcher recorded in and out, the estimated fee to collect it all, the treasury it would
 * go to and the gap limit another wallet would need. Read only: collections are prepared with
 * `npm run collect` and signed on the merchant's machine.
 */
export default async function FundsPage() {
  const session = await requirePage('view');
  const funds = await fundsReport(await getDatabase(), session.merchantId, session.mode);
  const gaps = await Promise.all(funds.map((line) => gapLimit(line.network, session.mode)));
  return (
    <>
      <PageTitle description="What your deposit addresses hold, and what collecting it to your treasury would cost. The gateway never holds a key: you sign collections on your own machine.">
        Funds
      </PageTitle>
      {funds.length === 0 ? (
        <EmptyState>Your deposit addresses hold nothing the watcher has seen confirmed and unspent.</EmptyState>
      ) : (
        <DataTable
          caption="Funds per network and currency"
          head={['Network', 'Held', 'Addresses', 'Outputs', 'Cost to collect', 'Treasury', 'Gap limit needed']}
        >
          {funds.map((line, i) => {
            const gap = gaps[i] ?? null;
            return (
              <tr key={`${line.network}:${line.currency}`}>
                <td className={CELL}>{line.network}</td>
                <td className={CELL} data-testid="funds-total">
                  <Amount value={line.total} currency={line.currency} />
                </td>
                <td className={CELL}>{line.addresses}</td>
                <td className={CELL}>{line.outputs}</td>
                <td className={CELL}>
                  {line.estimatedCost === null ? (
                    'no fee estimate'
                  ) : (
                    <>
                      <Amount value={line.estimatedCost} currency={line.currency} />
                      {` at ${line.feeRate} per vbyte`}
                    </>
                  )}
                </td>
                <td className={CELL}>{line.treasury === null ? 'not set' : <Mono>{line.treasury}</Mono>}</td>
                <td className={CELL}>
                  {gap === null ? '—' : gap.highestUsed === null ? 'none used yet' : `above ${gap.longestUnusedRun}`}
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      <p className="mt-4 text-sm">
        Prepare a collection with <code>npm run collect -- prepare</code> and sign it with <code>npm run signer</code>{' '}
        (the gateway&apos;s <code>docs/collections.md</code>). The API answers the same lines as <code>funds/list</code>
        .
      </p>
    </>
  );
}
