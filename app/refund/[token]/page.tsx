import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { findNetwork } from '@/lib/catalog';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { openClaim, reviewClaimAddress, type ClaimView } from '@/lib/refunds';
import { BUTTON } from '@/components/pay/ui';
import { confirmRefundClaim } from './actions';

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = {
  title: 'Your refund',
  // The link is the payer's secret: keep it out of search engines.
  robots: { index: false, follow: false },
};

const one = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** The link's refund, or the 404 page for a link that does not work (unknown, expired, replaced, replayed). */
async function claimOf(token: string): Promise<ClaimView> {
  try {
    return await openClaim(await getDatabase(), token, new Date());
  } catch (error) {
    if (isDomainErrorOf(error, 'ClaimLinkInvalid')) notFound();
    throw error;
  }
}

const FIELD = 'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 font-mono dark:bg-slate-900';

/**
 * The payer's claim page (`/refund/<token>`, docs/refunds.md): once the link is checked, the
 * amount and network of the refund, then the address (and tag) to send it to, reviewed, then
 * confirmed. Two forms that work without JavaScript: the first is a GET back to this page (nothing
 * is stored), the second posts the reviewed address to ./actions, which stores it once.
 */
export default async function RefundClaimRoute({ params, searchParams }: Props) {
  const { token } = await params;
  const claim = await claimOf(token);
  const query = await searchParams;
  const network = findNetwork(claim.network)?.displayName ?? claim.network;
  const typed = { address: one(query.address) ?? '', tag: one(query.tag) ?? '' };
  let reviewed: { address: string; tag: string | null } | null = null;
  let problem =
    one(query.error) === 'address' ? 'This address cannot receive this refund: check it and try again.' : null;
  if (one(query.error) === 'busy') problem = 'The service is busy: try again in a moment.';
  if (claim.state === 'awaiting_address' && typed.address !== '' && !problem) {
    try {
      reviewed = await reviewClaimAddress(await getDatabase(), token, typed, new Date());
    } catch (error) {
      if (!isDomainErrorOf(error, 'ClaimAddressInvalid')) throw error;
      problem = error.message;
    }
  }
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-xl font-semibold">Your refund</h1>
      <p className="mt-2">
        <span dir="ltr" className="font-mono text-lg">{`${claim.amount} ${claim.currency}`}</span> on the{' '}
        <bdi className="font-medium">{network}</bdi> network.
      </p>
      {claim.state === 'awaiting_address' ? (
        reviewed ? (
          <form action={confirmRefundClaim.bind(null, token)} className="mt-6">
            <h2 className="font-semibold">Confirm the address</h2>
            <p className="mt-2">The refund goes to this address. Once you confirm, it cannot be changed.</p>
            <p dir="ltr" className="mt-2 break-all rounded-md bg-slate-100 p-3 font-mono dark:bg-slate-800">
              {reviewed.address}
              {reviewed.tag !== null && ` (tag ${reviewed.tag})`}
            </p>
            <input type="hidden" name="address" value={reviewed.address} />
            <input type="hidden" name="tag" value={reviewed.tag ?? ''} />
            <p className="mt-4 flex flex-wrap items-center gap-4">
              <button type="submit" className={BUTTON}>
                Confirm and receive the refund here
              </button>
              <a href={`/refund/${token}`} className="font-medium underline">
                Change the address
              </a>
            </p>
          </form>
        ) : (
          <form method="get" className="mt-6">
            <h2 className="font-semibold">Where should we send it?</h2>
            {problem && (
              <p role="alert" className="mt-2 rounded-md border border-red-700 bg-red-50 p-3 dark:bg-red-950">
                {problem}
              </p>
            )}
            <label className="mt-4 block">
              <span className="font-medium">{`Your ${network} address`}</span>
              <input
                name="address"
                required
                maxLength={128}
                defaultValue={typed.address}
                className={FIELD}
                autoComplete="off"
                spellCheck={false}
              />
            </label>
            {claim.usesTags && (
              <label className="mt-4 block">
                <span className="font-medium">Destination tag (if your wallet or exchange gave you one)</span>
                <input
                  name="tag"
                  inputMode="numeric"
                  pattern="[0-9]*"
                  maxLength={10}
                  defaultValue={typed.tag}
                  className={FIELD}
                  autoComplete="off"
                />
              </label>
            )}
            <p className="mt-2 text-sm">
              {`Send only a ${network} address you control. An exchange's deposit address may not accept refunds.`}
            </p>
            <button type="submit" className={`${BUTTON} mt-4`}>
              Review
            </button>
          </form>
        )
      ) : (
        <section className="mt-6" aria-live="polite">
          <h2 className="font-semibold">{STATE_TITLE[claim.state]}</h2>
          {claim.address && (
            <p dir="ltr" className="mt-2 break-all rounded-md bg-slate-100 p-3 font-mono dark:bg-slate-800">
              {claim.address}
              {claim.tag !== null && ` (tag ${claim.tag})`}
            </p>
          )}
        </section>
      )}
    </main>
  );
}

const STATE_TITLE: Record<Exclude<ClaimView['state'], 'awaiting_address'>, string> = {
  ready: 'Address confirmed: the refund will be sent to it.',
  sent: 'The refund is on its way.',
  confirmed: 'The refund has arrived.',
  failed: 'The refund could not be sent: the merchant will contact you.',
  // A canceled refund's link does not open (lib/refunds/claim.ts): for the type's sake.
  canceled: 'The merchant canceled this refund.',
};
