import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { Amount, LINK, Mono, Notice, PageBody, Section, Time } from '@/components/dashboard/ui';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { getDatabase } from '@/lib/db';
import { findNetwork } from '@/lib/catalog';
import { formatUnits } from '@/lib/money';
import { collectionPlan, takesSubmission } from '@/lib/payouts';
import type {
  EvmRefundPlan,
  SolanaRefundPlan,
  StoredAccountPlan,
  TronRefundPlan,
  XrplRefundPlan,
} from '@/lib/protocol';
import { can, planPermission } from '@/lib/users';
import { requirePage } from '../../../../session';
import { submitSignedPlanAction } from '../../plan-actions';
import { PLAN_REFUSAL_COOKIE } from '../../plan-cookie';

export const metadata: Metadata = { title: 'Plan' };

const NOTICES = {
  prepared: { tone: 'success', text: 'Plan prepared: download it and sign it on your own machine.' },
  submitted: {
    tone: 'success',
    text: 'The signed transaction is the plan’s own and the node took it: this plan moves when it is mined.',
  },
  'submit-invalid': {
    tone: 'error',
    text: 'Paste the signed transaction as hex (what npm run signer writes as rawTx): nothing was submitted.',
  },
  'submit-refused': { tone: 'error', text: 'The signed transaction was not taken: nothing was recorded.' },
  'submit-key-material': {
    tone: 'error',
    text: 'That was a private key or a recovery phrase, not a transaction: the gateway never takes one, and nothing was kept. Sign with npm run signer on your own machine and paste its rawTx.',
  },
} as const;
type PlanNotice = keyof typeof NOTICES;

const NOTICE_PARAM = z.object({
  notice: z
    .enum(Object.keys(NOTICES) as [PlanNotice, ...PlanNotice[]])
    .optional()
    .catch(undefined),
});

/**
 * One collection or refund plan (docs/collections.md): what it spends and pays, its status as the
 * watcher moves it, and the files to sign on the merchant's own machine: the plan `npm run signer`
 * reads, and the bare PSBT for a wallet that signs PSBTs. Any dashboard user sees it; an owner or
 * admin may paste a Bitcoin or litecoin plan's signed transaction back (docs/decisions/109): a
 * collection's with the `settings` permission, a refund's with `refunds` (docs/decisions/116).
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
  if (plan.kind === 'refund' && plan.format === 'tron') return <TronRefund plan={plan} notice={notice} />;
  if (plan.kind === 'refund' && 'format' in plan && plan.format === 'xrpl')
    return <XrplRefund plan={plan} notice={notice} />;
  if ('transaction' in plan) return <EvmRefund plan={plan} notice={notice} />;
  if ('format' in plan && plan.format === 'solana') return <SolanaPlan plan={plan} notice={notice} />;
  // Why a submission was refused comes in a short-lived cookie (./plan-cookie.ts), never the URL.
  const refusal = notice === 'submit-refused' ? (await cookies()).get(PLAN_REFUSAL_COOKIE)?.value : undefined;
  // A dogecoin or bitcoincash plan is a raw transaction (docs/decisions/118): shown as a PSBT plan, without its PSBT file.
  if (!('psbt' in plan) && !('unsignedTx' in plan)) return <AccountPlan plan={plan} notice={notice} />;
  const back = plan.kind === 'refund' ? refundBack(plan.refund) : FUNDS_BACK;
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
    ...closingRows(plan),
  ];
  return (
    <PlanView
      plan={plan}
      back={back}
      title={plan.kind === 'refund' ? 'Refund plan' : 'Collection plan'}
      notice={notice}
      refusal={refusal}
      rows={rows}
      files={
        'psbt' in plan
          ? [
              {
                format: 'psbt',
                name: `plan-${plan.planId}.psbt`,
                use: ' (BIP 174 version 0) for a wallet that signs PSBTs',
              },
            ]
          : []
      }
      submit={
        takesSubmission(plan) &&
        plan.status === 'prepared' &&
        !plan.acceptedAt &&
        can(session.role, planPermission(plan.kind)) ? (
          <SubmitForm planId={plan.planId} />
        ) : null
      }
    >
      The signer checks every input and output itself, shows them and asks before signing; broadcast the signed
      transaction from your own node or wallet, or submit it here, and the watcher moves this plan as it is mined and
      confirmed.
    </PlanView>
  );
}

/**
 * The signed transaction pasted back (./plan-actions.ts): checked to be this plan's own transaction
 * and handed to the node, or to the sandbox in test mode, as `collections/submit` does. A plain
 * form: it works without JavaScript.
 */
function SubmitForm({ planId }: { planId: string }) {
  return (
    <Section title="Submit the signed transaction" id="submit">
      <form action={submitSignedPlanAction} className="space-y-2">
        <input type="hidden" name="planId" value={planId} />
        <Field
          label="Signed transaction (hex)"
          hint="The rawTx of the file npm run signer wrote, or your wallet's signed transaction: the gateway takes it only if it is this plan's."
        >
          <Textarea
            name="transaction"
            required
            rows={4}
            maxLength={1_000_000}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
        </Field>
        <Button type="submit">Submit</Button>
      </form>
    </Section>
  );
}

/** `amount` base units of `ticker` on `network`, in its decimals. */
function inCoin(network: string, ticker: string, amount: string): React.ReactNode {
  const decimals = findNetwork(network)?.currencies.find((c) => c.ticker === ticker)?.decimals ?? 0;
  return <Amount value={formatUnits(BigInt(amount), decimals)} currency={ticker} />;
}

/**
 * A Solana refund plan (docs/decisions/106, 111): one transfer from the wallet the payment paid to
 * the payer's, which the signer builds with a blockhash of its own node and sends there; no file
 * but the plan. Its status moves when the watcher sees the transfer carrying its reference.
 */
function SolanaPlan({ plan, notice }: { plan: SolanaRefundPlan; notice?: PlanNotice }) {
  const rows: [string, React.ReactNode][] = [
    ['Status', <StatusBadge key="status" status={plan.status} />],
    ['Network', plan.network],
    [
      'Refund',
      <span key="refund">
        <Amount value={plan.refund.pays} currency={plan.currency} />
        {' to '}
        <Mono>{plan.refund.destination}</Mono>
      </span>,
    ],
    ['From the wallet', <Mono key="wallet">{plan.body.wallet}</Mono>],
    ['Reference', <Mono key="reference">{plan.body.reference}</Mono>],
    ['Sign before', <Time key="expires" value={plan.body.expiresAt} />],
    ['Transaction', plan.txid ? <Mono key="txid">{plan.txid}</Mono> : 'not seen yet'],
    ...closingRows(plan),
  ];
  return (
    <PlanView plan={plan} back={refundBack(plan.refund)} title="Refund plan" notice={notice} rows={rows} files={[]}>
      The signer builds the transfer itself, checks it against the refund and its own node, asks before signing and
      sends it to its node; the wallet pays the network fee (and the payer&apos;s token account when it has none).
    </PlanView>
  );
}

/**
 * An EVM or Tron plan (docs/decisions/093): the addresses it collects, what the fee payer may spend
 * (EVM: every transaction's gas at its fee cap, and what it funds; Tron: the TRX burned, in all and
 * by each address's step, docs/decisions/107), and the
 * plan file; it has no PSBT. Its status moves as the watcher sees its transfers to the treasury.
 */
function AccountPlan({ plan, notice }: { plan: StoredAccountPlan; notice?: PlanNotice }) {
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
    ...closingRows(plan),
  ];
  return (
    <PlanView plan={plan} back={FUNDS_BACK} title="Collection plan" notice={notice} rows={rows} files={[]}>
      The signer decodes every transaction itself, shows what each moves and asks before signing; broadcast the signed
      transactions in their order (the fee payer&apos;s first), and the watcher moves this plan as their transfers to
      the treasury are mined and confirmed.
    </PlanView>
  );
}

/**
 * What a treasury's refund plan pays its payer: the refund whole, or the refund less its network fee
 * when the payer bears it (docs/decisions/120; a coin refund only).
 */
function TreasuryRefundPays({ plan }: { plan: EvmRefundPlan | TronRefundPlan }) {
  return (
    <span>
      <Amount value={plan.refund.pays} currency={plan.currency} />
      {' to '}
      <Mono>{plan.refund.destination}</Mono>
      {plan.refund.feeFromRefund && (
        <>
          {' (the refund of '}
          <Amount value={plan.refund.amount} currency={plan.currency} />
          {' less its network fee, which the payer bears)'}
        </>
      )}
    </span>
  );
}

/**
 * An EVM refund plan (docs/decisions/112): one transaction from the treasury paying the refund to
 * the address its payer confirmed; the treasury pays the gas (taken from a coin refund whose payer
 * bears it, 120). Its status moves as the node's
 * receipt of its transaction says.
 */
function EvmRefund({ plan, notice }: { plan: EvmRefundPlan; notice?: PlanNotice }) {
  const native = findNetwork(plan.network)?.currencies.find((c) => !c.contract)?.ticker ?? '';
  const gas = (BigInt(plan.transaction.gas) * BigInt(plan.transaction.maxFeePerGas)).toString();
  const rows: [string, React.ReactNode][] = [
    ['Status', <StatusBadge key="status" status={plan.status} />],
    ['Network', `${plan.network} (chain id ${plan.chainId})`],
    ['Refund', <TreasuryRefundPays key="refund" plan={plan} />],
    ['From the treasury', <Mono key="treasury">{plan.treasury}</Mono>],
    ['Gas at most', <span key="gas">{inCoin(plan.network, native, gas)}</span>],
    ['Treasury nonce', String(plan.transaction.nonce)],
    ['Transaction', plan.txid ? <Mono key="txid">{plan.txid}</Mono> : 'not seen yet'],
    ...closingRows(plan),
  ];
  return (
    <PlanView plan={plan} back={refundBack(plan.refund)} title="Refund plan" notice={notice} rows={rows} files={[]}>
      The signer checks the refunded payment on its own node, the amount and the address against its ledger and daily
      cap, shows them and asks before signing with the treasury&apos;s key; with --from-api it hands the transaction
      back, and the watcher moves this plan as it is mined and confirmed.
    </PlanView>
  );
}

/** A Tron refund plan (docs/decisions/115): the refund, the treasury that pays it and the TRX its fee burns. */
function TronRefund({ plan, notice }: { plan: TronRefundPlan; notice?: PlanNotice }) {
  const rows: [string, React.ReactNode][] = [
    ['Status', <StatusBadge key="status" status={plan.status} />],
    ['Network', `${plan.network} (${plan.chain})`],
    ['Refund', <TreasuryRefundPays key="refund" plan={plan} />],
    ['From the treasury', <Mono key="treasury">{plan.treasury}</Mono>],
    ['Fee burned, about', <span key="burn">{inCoin(plan.network, 'TRX', plan.transaction.burn)}</span>],
    ['Transaction', <Mono key="txid">{plan.transaction.txID}</Mono>],
    ['Sign before', <Time key="expires" value={plan.transaction.expiresAt} />],
    ...closingRows(plan),
  ];
  return (
    <PlanView plan={plan} back={refundBack(plan.refund)} title="Refund plan" notice={notice} rows={rows} files={[]}>
      The signer checks the refunded payment on its own Tron node, the amount and the address against its ledger and
      daily cap, shows them and asks before signing with the treasury&apos;s key; with --from-api it hands the
      transaction back, and the watcher moves this plan as it is mined and confirmed.
    </PlanView>
  );
}

/** An XRP Ledger refund plan (docs/decisions/119): the Payment from the merchant's own account, its tag and fee. */
function XrplRefund({ plan, notice }: { plan: XrplRefundPlan; notice?: PlanNotice }) {
  const { fields } = plan.transaction;
  const rows: [string, React.ReactNode][] = [
    ['Status', <StatusBadge key="status" status={plan.status} />],
    ['Network', `${plan.network} (${plan.chain})`],
    [
      'Refund',
      <span key="refund">
        <Amount value={plan.refund.pays} currency={plan.currency} />
        {' to '}
        <Mono>{plan.refund.destination}</Mono>
        {plan.refund.tag === null ? ' (no tag)' : ` tag ${plan.refund.tag}`}
      </span>,
    ],
    ['From your account', <Mono key="account">{plan.account}</Mono>],
    ['Fee', <span key="fee">{inCoin(plan.network, 'XRP', fields.Fee)}</span>],
    ['Valid until ledger', String(plan.transaction.lastLedgerSequence)],
    ...(plan.txid ? ([['Transaction', <Mono key="txid">{plan.txid}</Mono>]] as [string, React.ReactNode][]) : []),
    ...closingRows(plan),
  ];
  return (
    <PlanView plan={plan} back={refundBack(plan.refund)} title="Refund plan" notice={notice} rows={rows} files={[]}>
      The signer checks the refunded payment on its own rippled, the amount, account and tag against its ledger and
      daily cap, shows them and asks before signing with your account&apos;s secret; with --from-api it hands the
      transaction back, and the watcher completes this plan when a validated ledger holds it.
    </PlanView>
  );
}

const FUNDS_BACK = { href: '/dashboard/funds', label: 'Funds' };

/** A refund plan's way back: its order's page, or Funds for an orphan deposit's refund. */
function refundBack(refund: { orderId: string | null }): { href: string; label: string } {
  return refund.orderId ? { href: `/dashboard/orders/${refund.orderId}`, label: 'Order' } : FUNDS_BACK;
}

/** The last rows of every plan: why it failed or was refused, when there is a reason, and when it was prepared. */
function closingRows(plan: { reason: string | null; createdAt: string }): [string, React.ReactNode][] {
  return [
    ...(plan.reason ? ([['Why', plan.reason]] as [string, React.ReactNode][]) : []),
    ['Prepared', <Time key="created" value={plan.createdAt} />],
  ];
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
  refusal,
  rows,
  files,
  submit,
  children,
}: {
  plan: { planId: string };
  back: { href: string; label: string };
  title: string;
  notice?: PlanNotice;
  /** Why a submission was refused, from the action's cookie. */
  refusal?: string;
  rows: [string, React.ReactNode][];
  files: { format: string; name: string; use: string }[];
  /** The form that takes the signed transaction back, where this plan and this user may submit one. */
  submit?: React.ReactNode;
  children: React.ReactNode;
}) {
  const file = `/dashboard/funds/plans/${plan.planId}/file`;
  return (
    <PageBody title={title} description={<Mono>{plan.planId}</Mono>} back={back}>
      {notice && (
        <Notice tone={NOTICES[notice].tone}>
          {refusal ? `${NOTICES[notice].text} ${refusal}` : NOTICES[notice].text}
        </Notice>
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
      {submit}
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
