import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { findNetwork } from '@/lib/catalog';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { REFUND_CLAIM_MESSAGES, type RefundClaimMessages } from '@/lib/mail';
import { formatAmount } from '@/lib/pay/format';
import { LANGUAGE_HEADER, languageFrom, type Language } from '@/lib/pay/i18n';
import { MESSAGES } from '@/lib/pay/messages';
import { ClaimAddressInvalid, openClaim, reviewClaimAddress, type ClaimView } from '@/lib/refunds';
import { BUTTON, fill } from '@/components/pay/ui';
import { LanguageLinks } from '@/components/pay/language-links';
import { confirmRefundClaim } from './actions';

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

async function language(): Promise<Language> {
  return languageFrom((await headers()).get(LANGUAGE_HEADER));
}

export async function generateMetadata(): Promise<Metadata> {
  return {
    title: REFUND_CLAIM_MESSAGES[await language()].page.title,
    // The link is the payer's secret: keep it out of search engines.
    robots: { index: false, follow: false },
  };
}

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

/** `?error=` as the action sends it back (lib/refunds ClaimAddressInvalid's problems, and busy); anything else is no error. */
const ERRORS: Record<string, keyof RefundClaimMessages['page']['errors']> = {
  address: 'address',
  'no-tag': 'noTag',
  tag: 'tag',
  busy: 'busy',
};

const FIELD = 'mt-1 block w-full rounded-md border border-line-strong bg-surface px-3 py-2 font-mono focus-ring';
const ADDRESS_BOX = 'mt-2 break-all rounded-md bg-raised p-3 font-mono';

/**
 * The payer's claim page (`/refund/<token>`, docs/refunds.md), in the payer's language
 * (docs/languages.md): once the link is checked, the amount and network of the refund, then the
 * address (and tag) to send it to, reviewed, then confirmed. Two forms that work without
 * JavaScript: the first is a GET back to this page (nothing is stored), the second posts the
 * reviewed address to ./actions, which stores it once. Both carry the page's language.
 */
export default async function RefundClaimRoute({ params, searchParams }: Props) {
  const { token } = await params;
  const claim = await claimOf(token);
  const query = await searchParams;
  const lang = await language();
  const t = REFUND_CLAIM_MESSAGES[lang].page;
  const { separators } = MESSAGES[lang];
  const network = findNetwork(claim.network)?.displayName ?? claim.network;
  const typed = { address: one(query.address) ?? '', tag: one(query.tag) ?? '' };
  let reviewed: { address: string; tag: string | null } | null = null;
  const error = ERRORS[one(query.error) ?? ''];
  let problem = error ? fill(t.errors[error], { network }) : null;
  if (claim.state === 'awaiting_address' && typed.address !== '' && !problem) {
    try {
      reviewed = await reviewClaimAddress(await getDatabase(), token, typed, new Date());
    } catch (error) {
      if (!(error instanceof ClaimAddressInvalid)) throw error;
      problem = fill(t.errors[ERRORS[error.problem]!], { network });
    }
  }
  /** An address as the payer gave it, left to right in every language, and its tag on a line of its own. */
  const address = (given: { address: string; tag: string | null }) => (
    <>
      <p dir="ltr" className={ADDRESS_BOX}>
        {given.address}
      </p>
      {given.tag !== null && (
        <p className="mt-1">
          {t.tag}
          {separators.label}
          <span dir="ltr" className="font-mono">
            {given.tag}
          </span>
        </p>
      )}
    </>
  );
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <div className="flex items-start justify-between gap-4">
        <h1 className="text-xl font-semibold">{t.title}</h1>
        <LanguageLinks current={lang} m={MESSAGES[lang]} />
      </div>
      <p className="mt-2" data-testid="refund-amount">
        {fill(t.amountOn, { amount: `${formatAmount(claim.amount, lang)} ${claim.currency}`, network })}
      </p>
      {claim.state === 'awaiting_address' ? (
        reviewed ? (
          <form action={confirmRefundClaim.bind(null, token)} className="mt-6">
            <h2 className="font-semibold">{t.confirmTitle}</h2>
            <p className="mt-2">{t.confirmBody}</p>
            {address(reviewed)}
            <input type="hidden" name="address" value={reviewed.address} />
            <input type="hidden" name="tag" value={reviewed.tag ?? ''} />
            <input type="hidden" name="lang" value={lang} />
            <p className="mt-4 flex flex-wrap items-center gap-4">
              <button type="submit" className={BUTTON}>
                {t.confirm}
              </button>
              <a href={`/refund/${token}?lang=${lang}`} className="font-medium underline">
                {t.change}
              </a>
            </p>
          </form>
        ) : (
          <form method="get" className="mt-6">
            <h2 className="font-semibold">{t.askTitle}</h2>
            {problem && (
              <p role="alert" className="mt-2 rounded-md border border-bad-line bg-bad-surface p-3 text-bad-ink">
                {problem}
              </p>
            )}
            <input type="hidden" name="lang" value={lang} />
            <label className="mt-4 block">
              <span className="font-medium">{fill(t.addressLabel, { network })}</span>
              <input
                name="address"
                required
                maxLength={128}
                defaultValue={typed.address}
                dir="ltr"
                className={FIELD}
                autoComplete="off"
                spellCheck={false}
              />
            </label>
            {claim.usesTags && (
              <label className="mt-4 block">
                <span className="font-medium">{t.tagLabel}</span>
                <input
                  name="tag"
                  inputMode="numeric"
                  pattern="[0-9]*"
                  maxLength={10}
                  defaultValue={typed.tag}
                  dir="ltr"
                  className={FIELD}
                  autoComplete="off"
                />
              </label>
            )}
            <p className="mt-2 text-sm">{fill(t.addressNote, { network })}</p>
            <p className="mt-1 text-sm">{REFUND_CLAIM_MESSAGES[lang].exchangeNote}</p>
            <button type="submit" className={`${BUTTON} mt-4`}>
              {t.review}
            </button>
          </form>
        )
      ) : (
        <section className="mt-6" aria-live="polite">
          <h2 className="font-semibold">{t.states[claim.state]}</h2>
          {claim.address && address({ address: claim.address, tag: claim.tag })}
        </section>
      )}
    </main>
  );
}
