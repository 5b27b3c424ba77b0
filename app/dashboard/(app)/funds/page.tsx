import type { Metadata } from 'next';
import { z } from 'zod';
import { Amount, Mono, Notice, PageTitle } from '@/components/dashboard/ui';
import { enabledNetworks } from '@/lib/chains';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { fundsReport, gapLimitOf, treasuryOf, type GapLimit } from '@/lib/payouts';
import { requirePage } from '../../session';
import { setTreasuryAction } from './actions';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { CELL, DataTable, EmptyState } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Funds' };

/** What the treasury form did (set by its action's redirect); anything else shows nothing. */
const NOTICE_PARAM = z.object({
  notice: z
    .enum(['treasury', 'treasury-invalid', 'confirm-refused', 'code-refused', 'owner-only'])
    .optional()
    .catch(undefined),
});
const NOTICES = {
  treasury: { tone: 'success', text: 'The treasury is saved: the next collection of that network goes there.' },
  'treasury-invalid': {
    tone: 'error',
    text: 'That is not an address of the network (check it and its checksum): nothing was changed.',
  },
  'confirm-refused': {
    tone: 'error',
    text: "The last six characters you typed are not the address's: nothing was changed.",
  },
  'code-refused': {
    tone: 'error',
    text: 'The code was refused (wrong, used already, or too many attempts): nothing was changed. Enter the current code of your authenticator app.',
  },
  'owner-only': { tone: 'error', text: 'Only an owner sets a treasury: nothing was changed.' },
} as const;

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
export default async function FundsPage({ searchParams }: { searchParams: Promise<Record<string, unknown>> }) {
  const session = await requirePage('view');
  const { notice } = NOTICE_PARAM.parse(await searchParams);
  const db = await getDatabase();
  const funds = await fundsReport(db, session.merchantId, session.mode);
  // The networks whose deposits a collection plan gathers: the Bitcoin family's.
  const collectable = enabledNetworks(session.mode).filter((network) => network.family === 'utxo');
  const treasuries = await Promise.all(
    collectable.map(async (network) => ({
      network,
      address: await treasuryOf(db, session.merchantId, network.name, session.mode),
    })),
  );
  const gaps = await Promise.all(funds.map((line) => gapLimit(line.network, session.mode)));
  return (
    <>
      <PageTitle description="What your deposit addresses hold, and what collecting it to your treasury would cost. The gateway never holds a key: you sign collections on your own machine.">
        Funds
      </PageTitle>
      {notice ? <Notice tone={NOTICES[notice].tone}>{NOTICES[notice].text}</Notice> : null}
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
      <section aria-labelledby="treasury-title" className="mt-6">
        <h2 id="treasury-title" className="text-lg font-semibold">
          Treasuries
        </h2>
        <ul className="mt-2 text-sm">
          {treasuries.map(({ network, address }) => (
            <li key={network.name} data-testid="treasury">
              {`${network.displayName}: `}
              {address === null ? 'not set' : <Mono>{address}</Mono>}
            </li>
          ))}
        </ul>
        {session.role === 'owner' ? (
          <form action={setTreasuryAction} className="mt-3 max-w-xl space-y-3">
            <p className="text-sm">
              Where a network&apos;s collections go. Your signer pins its own copy: set the same address there.
            </p>
            <div>
              <Label htmlFor="treasury-network">Network</Label>
              <Select id="treasury-network" name="network" required>
                {collectable.map((network) => (
                  <option key={network.name} value={network.name}>
                    {network.displayName}
                  </option>
                ))}
              </Select>
            </div>
            <div>
              <Label htmlFor="treasury-address">Treasury address</Label>
              <Input id="treasury-address" name="address" required maxLength={128} className="w-full" />
            </div>
            <div>
              <Label htmlFor="treasury-confirm">Its last six characters, typed again</Label>
              <Input id="treasury-confirm" name="confirm" required minLength={6} maxLength={6} />
            </div>
            <div>
              <Label htmlFor="treasury-code">Authenticator code</Label>
              <Input
                id="treasury-code"
                name="code"
                required
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={64}
              />
            </div>
            <Button type="submit" variant="primary">
              Set treasury
            </Button>
          </form>
        ) : (
          <p className="mt-2 text-sm">Only an owner sets a treasury.</p>
        )}
      </section>
      <p className="mt-4 text-sm">
        Prepare a collection with <code>npm run collect -- prepare</code> and sign it with <code>npm run signer</code>{' '}
        (the gateway&apos;s <code>docs/collections.md</code>). The API answers the same lines as <code>funds/list</code>
        .
      </p>
    </>
  );
}
