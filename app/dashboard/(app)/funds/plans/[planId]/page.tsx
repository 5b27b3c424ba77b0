import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { Amount, LINK, Mono, Notice, PageTitle, Section, Time } from '@/components/dashboard/ui';
import { StatusBadge } from '@/components/ui/badge';
import { getDatabase } from '@/lib/db';
import { collectionPlan } from '@/lib/payouts';
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
  const file = `/dashboard/funds/plans/${plan.planId}/file`;
  const back =
    plan.kind === 'refund' && plan.refund.orderId
      ? { href: `/dashboard/orders/${plan.refund.orderId}`, label: '← Order' }
      : { href: '/dashboard/funds', label: '← Funds' };
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
    ...(plan.reason ? ([['Why', plan.reason]] as [string, React.ReactNode][]) : []),
    ['Prepared', <Time key="created" value={plan.createdAt} />],
  ];
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={back.href} className={LINK}>
          {back.label}
        </Link>
      </p>
      <PageTitle description={<Mono>{plan.planId}</Mono>}>
        {plan.kind === 'refund' ? 'Refund plan' : 'Collection plan'}
      </PageTitle>
      {notice === 'prepared' && (
        <Notice tone="success">Plan prepared: download it and sign it on your own machine.</Notice>
      )}
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]" data-testid="plan">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium">{term}</dt>
            <dd className="mb-1 sm:mb-0">{value}</dd>
          </div>
        ))}
      </dl>
      <Section title="Sign it where your keys are" id="sign">
        <ul className="list-disc space-y-1 pl-5 text-sm">
          <li>
            <a href={`${file}?format=plan`} className={LINK} download>
              {`plan-${plan.planId}.json`}
            </a>
            {' for '}
            <code>npm run signer -- sign --plan plan-{plan.planId}.json --config signer.json --out signed.json</code>
          </li>
          <li>
            <a href={`${file}?format=psbt`} className={LINK} download>
              {`plan-${plan.planId}.psbt`}
            </a>
            {' (BIP 174 version 0) for a wallet that signs PSBTs'}
          </li>
        </ul>
        <p className="mt-2 text-sm">
          The signer checks every input and output itself, shows them and asks before signing; broadcast the signed
          transaction from your own node or wallet, and the watcher moves this plan as it is mined and confirmed.
        </p>
      </Section>
    </>
  );
}
