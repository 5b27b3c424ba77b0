import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { Amount, LINK, Mono, Notice, PageBody, Section, Time } from '@/components/dashboard/ui';
import { StatusBadge } from '@/components/ui/badge';
import { getDatabase } from '@/lib/db';
import { findNetwork } from '@/lib/catalog';
import { formatUnits } from '@/lib/money';
import { collectionPlan } from '@/lib/payouts';
import type { StoredAccountPlan } from '@/lib/protocol';
import { requirePage } from '../../../../session';

export const metadata: Metadata = { title: 'Plan' };

const NOTICE_PARAM = z.object({ notice: z.enum(['prepared']).optional().catch(undefined) });

/**
 * One collection or refund plan (docs/collections.md): what it spends and pays, its status as the
 * watcher moves it, and the files to sign on the merchant's own machine: the plan `npm run signer`
 * reads, and the bare PSBT for a wallet that signs PSBTs. Read only; any dashboard user sees it.
 */
export default async function PlanPage({
  params,
  searchParams,
}: {
  params: Promise<{ planId: string }>;
  searchParams: Promise<Record<string, unknown>>;
}) {
  const session = await requirePage('view');
  const { planId } = await params;
  const plan = await collectionPlan(await getDatabase(), session.merchantId, session.mode, planId);
  if (!plan) notFound();
  const { notice } = NOTICE_PARAM.parse(await searchParams);
  if (!('psbt' in plan)) return <AccountPlan plan={plan} notice={notice} />;
  const back =
    plan.kind === 'refund' && plan.refund.orderId
      ? { href: `/dashboard/orders/${plan.refund.orderId}`, label: 'Order' }
      : { href: '/dashboard/funds', label: 'Funds' };
  const rows: [string, React.ReactNode][] = [
    ['Status', <StatusBadge key="status" status={plan.status} />],
    ['Network', `${plan.network} (${plan.chain})`],
    ['Inputs', `${plan.inputs.length} deposit outputs`],
    ['Total', <Amount key="total" value={plan.total} currency={plan.currency} />],
    [
      'Fee',
      <span key="fee">
        <Amount value={plan.fee} currency={plan.currency} />
        {` at ${plan.feeRate} per vbyte`}
      </span>,
    ],
    ...(plan.kind === 'refund'
      ? ([
          [
            'Refund',
            <span key="refund">
              <Amount value={plan.refund.pays} currency={plan.currency} />
              {' to '}
              <Mono>{plan.refund.destination}</Mono>
            </span>,
          ],
          ['Change to the treasury', <Mono key="treasury">{plan.treasury}</Mono>],
        ] as [string, React.ReactNode][])
      : ([
          ['To the treasury', <Amount key="sent" value={plan.sent} currency={plan.currency} />],
          ['Treasury', <Mono key="treasury">{plan.treasury}</Mono>],
        ] as [string, React.ReactNode][])),
    ['Transaction', plan.txid ? <Mono key="txid">{plan.txid}</Mono> : 'not seen yet'],
    ...(plan.acceptedAt && plan.status === 'prepared'
      ? ([
          [
            'Submitted',
            <span key="accepted">
              <Time value={plan.acceptedAt} />
              {', taken by the node: waiting to be mined'}
            </span>,
          ],
        ] as [string, React.ReactNode][])
      : []),
    ...(plan.reason ? ([['Why', plan.reason]] as [string, React.ReactNode][]) : []),
    ['Prepared', <Time key="created" value={plan.createdAt} />],
  ];
  return (
    <PlanView
      plan={plan}
      back={back}
      title={plan.kind === 'refund' ? 'Refund plan' : 'Collection plan'}
      notice={notice}
      rows={rows}
      files={[
        { format: 'psbt', name: `plan-${plan.planId}.psbt`, use: ' (BIP 174 version 0) for a wallet that signs PSBTs' },
      ]}
    >
      The signer checks every input and output itself, shows them and asks before signing; broadcast the signed
      transaction from your own node or wallet, and the watcher moves this plan as it is mined and confirmed.
    </PlanView>
  );
}

/** `amount` base units of `ticker` on `network`, in its decimals. */
function inCoin(network: string, ticker: string, amount: string): React.ReactNode {
  const decimals = findNetwork(network)?.currencies.find((c) => c.ticker === ticker)?.decimals ?? 0;
  return <Amount value={formatUnits(BigInt(amount), decimals)} currency={ticker} />;
}

/**
 * An EVM or Tron plan (docs/decisions/093): the addresses it collects, what the fee payer may spend
 * (EVM: every transaction's gas at its fee cap, and what it funds; Tron: the TRX burned, in all and
 * by each address's step, docs/decisions/107), and the
 * plan file; it has no PSBT. Its status moves as the watcher sees its transfers to the treasury.
 */
function AccountPlan({ plan, notice }: { plan: StoredAccountPlan; notice?: 'prepared' }) {
  const evm = 'family' in plan ? plan : null;
  const tron = 'family' in plan ? null : plan;
  const native = findNetwork(plan.network)?.currencies.find((c) => !c.contract)?.ticker ?? '';
  const token = evm ? (evm.tokens[0]?.ticker ?? native) : tron!.currency;
  const total = evm
    ? evm.items
        .flatMap((i) => i.balances)
        .filter((b) => b.currency === token)
        .reduce((sum, b) => sum + BigInt(b.amount), 0n)
        .toString()
    : tron!.total;
  const rows: [string, React.ReactNode][] = [
    ['Status', <StatusBadge key="status" status={plan.status} />],
    ['Network', plan.network],
    ['Addresses', addressCount(evm ? evm.items.length : tron!.addresses.length)],
    ['To the treasury', <span key="total">{inCoin(plan.network, token, total)}</span>],
    ['Treasury', <Mono key="treasury">{plan.treasury}</Mono>],
    evm
      ? [
          'Gas payer spends at most',
          <span key="fee">
            {inCoin(plan.network, native, evm.maxGasPayerSpend)}
            {' from '}
            <Mono>{evm.gasPayer.address}</Mono>
          </span>,
        ]
      : tron!.token === null
        ? // TRX itself (docs/decisions/113): each address pays its own sweep's bandwidth.
          ['TRX burned (by the addresses swept)', inCoin(plan.network, native, tron!.burn)]
        : [
            tron!.energySource === 'stake'
              ? 'TRX burned (energy lent from stake)'
              : 'TRX burned (no stake: energy burned)',
            <span key="fee">
              {inCoin(plan.network, native, tron!.burn)}
              {' by '}
              <Mono>{tron!.resourceAccount.address}</Mono>
            </span>,
          ],
    ['Transactions', `${evm ? evm.transactions.length : tron!.addresses.flatMap((a) => a.steps).length}, in order`],
    ...(tron
      ? ([
          [
            'TRX each step burns',
            <ul key="steps" className="space-y-1" data-testid="tron-step-burns">
              {tron.addresses.map((a) => (
                <li key={a.address}>
                  <Mono>{a.address}</Mono>
                  {': '}
                  {a.steps.map((s, i) => (
                    <span key={s.txID}>
                      {i > 0 && ', '}
                      {`${s.step} `}
                      {inCoin(plan.network, native, s.burn)}
                    </span>
                  ))}
                </li>
              ))}
            </ul>,
          ],
        ] as [string, React.ReactNode][])
      : []),
    ...(tron
      ? ([['Sign and broadcast before', <Time key="expires" value={tron.expiresAt} />]] as [string, React.ReactNode][])
      : []),
    ...(plan.reason ? ([['Why', plan.reason]] as [string, React.ReactNode][]) : []),
    ['Prepared', <Time key="created" value={plan.createdAt} />],
  ];
  return (
    <PlanView
      plan={plan}
      back={{ href: '/dashboard/funds', label: 'Funds' }}
      title="Collection plan"
      notice={notice}
      rows={rows}
      files={[]}
    >
      The signer decodes every transaction itself, shows what each moves and asks before signing; broadcast the signed
      transactions in their order (the fee payer&apos;s first), and the watcher moves this plan as their transfers to
      the treasury are mined and confirmed.
    </PlanView>
  );
}

/**
 * What every plan's page draws around its rows: the way back, the title, the notice of a plan just
 * prepared, and "Sign it where your keys are": the plan file for `npm run signer` first, then any
 * other file of the plan (a PSBT plan's bare PSBT), then `children`, what signing it goes like.
 */
function PlanView({
  plan,
  back,
  title,
  notice,
  rows,
  files,
  children,
}: {
  plan: { planId: string };
  back: { href: string; label: string };
  title: string;
  notice?: 'prepared';
  rows: [string, React.ReactNode][];
  files: { format: string; name: string; use: string }[];
  children: React.ReactNode;
}) {
  const file = `/dashboard/funds/plans/${plan.planId}/file`;
  return (
    <PageBody title={title} description={<Mono>{plan.planId}</Mono>} back={back}>
      {notice === 'prepared' && (
        <Notice tone="success">Plan prepared: download it and sign it on your own machine.</Notice>
      )}
      <PlanRows rows={rows} />
      <Section title="Sign it where your keys are" id="sign">
        <ul className="list-disc space-y-1 pl-5 text-sm">
          <li>
            <a href={`${file}?format=plan`} className={LINK} download>
              {`plan-${plan.planId}.json`}
            </a>
            {' for '}
            <code>npm run signer -- sign --plan plan-{plan.planId}.json --config signer.json --out signed.json</code>
          </li>
          {files.map((f) => (
            <li key={f.format}>
              <a href={`${file}?format=${f.format}`} className={LINK} download>
                {f.name}
              </a>
              {f.use}
            </li>
          ))}
        </ul>
        <p className="mt-2 text-sm">{children}</p>
      </Section>
    </PageBody>
  );
}

function PlanRows({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]" data-testid="plan">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium">{term}</dt>
          <dd className="mb-1 sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function addressCount(count: number): string {
  return count === 1 ? '1 deposit address' : `${count} deposit addresses`;
}
