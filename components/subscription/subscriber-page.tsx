/**
 * The subscriber's page (`/subscription/{token}`, a server component; docs/subscriptions.md): the
 * subscription, its open invoice, paying periods ahead, and cancelling in two steps (ask, then
 * confirm with a single-use confirmation). Every action is a form post to a route beside the page,
 * which works without JavaScript. Texts come in one language as props.
 */
import type { SubscriptionMessages } from '@/lib/mail/subscription-messages';
import type { SubscriptionStatus } from '@/lib/protocol';
import { BUTTON } from '../pay/ui';

/** What the page shows: nothing the subscriber's mail did not already tell. */
export interface SubscriberView {
  token: string;
  language: string;
  plan: string;
  status: SubscriptionStatus;
  /** Formatted in the page's language. */
  price: string;
  paidUntil: string | null;
  creditPeriods: number;
  openInvoiceId: string | null;
  /** A cancel confirmation asked for (its single-use token), or null. */
  confirm: string | null;
  /** The subscriber has just canceled. */
  canceled: boolean;
}

const FIELD = 'mt-1 block w-24 rounded-md border border-line-strong bg-surface px-3 py-2 text-lg';

export function SubscriberPage({
  view,
  t,
  rateError = null,
}: {
  view: SubscriberView;
  t: SubscriptionMessages['page'];
  /** Why the last pay form made no invoice (no fresh rate), in the page's language. */
  rateError?: string | null;
}) {
  const base = `/subscription/${view.token}`;
  const lang = <input type="hidden" name="lang" value={view.language} />;
  const ended = view.status === 'canceled';
  return (
    <main className="mx-auto max-w-lg space-y-6 p-4">
      <h1 className="text-2xl font-semibold">{t.title}</h1>
      {view.canceled && (
        <p role="status" className="rounded-md border border-line-strong p-3">
          {t.canceled}
        </p>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        <dt className="text-muted">{t.plan}</dt>
        <dd>
          <bdi>{view.plan}</bdi>
        </dd>
        <dt className="text-muted">{t.price}</dt>
        <dd>
          <bdi>{view.price}</bdi>
        </dd>
        <dt className="sr-only">{t.title}</dt>
        <dd className="col-span-2 font-medium" data-testid="subscription-status">
          {t.statuses[view.status]}
        </dd>
        {view.paidUntil && (
          <>
            <dt className="text-muted">{t.paidUntil}</dt>
            <dd>
              <bdi>{view.paidUntil}</bdi>
            </dd>
          </>
        )}
        {view.creditPeriods > 0 && (
          <>
            <dt className="text-muted">{t.credit}</dt>
            <dd>{view.creditPeriods}</dd>
          </>
        )}
      </dl>
      {view.openInvoiceId && (
        <p>
          <a className={`${BUTTON} inline-block`} href={`/invoice/${view.openInvoiceId}?lang=${view.language}`}>
            {t.payOpen}
          </a>
        </p>
      )}
      <form method="post" action={`${base}/pay`} className="space-y-2">
        {rateError && (
          <p role="alert" className="rounded-md border border-bad-line p-3" data-testid="pay-error">
            {rateError}
          </p>
        )}
        {lang}
        {ended ? (
          <input type="hidden" name="periods" value="1" />
        ) : (
          <label className="block">
            {t.periods}
            <input className={FIELD} type="number" name="periods" min={1} max={24} defaultValue={1} required />
          </label>
        )}
        <button type="submit" className={BUTTON}>
          {ended ? t.reactivate : t.payAhead}
        </button>
      </form>
      {!ended &&
        (view.confirm ? (
          <form method="post" action={`${base}/confirm`} className="space-y-2">
            {lang}
            <input type="hidden" name="confirmation" value={view.confirm} />
            <p>{t.cancelQuestion}</p>
            <button type="submit" className={BUTTON}>
              {t.cancelConfirm}
            </button>
          </form>
        ) : (
          <form method="post" action={`${base}/cancel`}>
            {lang}
            <button type="submit" className="underline">
              {t.cancel}
            </button>
          </form>
        ))}
    </main>
  );
}

/** The page of a link that expired, was never one, or names no subscription. */
export function SubscriberLinkGone({ t }: { t: SubscriptionMessages['page'] }) {
  return (
    <main className="mx-auto max-w-lg space-y-4 p-4">
      <h1 className="text-2xl font-semibold">{t.title}</h1>
      <p>{t.linkGone}</p>
    </main>
  );
}
