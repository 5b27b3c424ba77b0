import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { LinkPage, type PublicLinkView } from '@/components/link/link-page';
import { FIAT_CURRENCIES } from '@/lib/catalog';
import { getDatabase } from '@/lib/db';
import { countLinkView, findPublicLink, linkStatus } from '@/lib/links';
import { formatDecimal } from '@/lib/money';
import { formatPrice } from '@/lib/pay/format';
import { LANGUAGE_HEADER, languageFrom, type Language } from '@/lib/pay/i18n';
import { isLinkPageError, LINK_MESSAGES } from '@/lib/pay/link-messages';
import { MESSAGES } from '@/lib/pay/messages';

type Props = {
  params: Promise<{ linkId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** One database read per request, shared by the metadata and the page. */
const linkOf = cache(async (linkId: string) => findPublicLink(await getDatabase(), linkId));

async function language(): Promise<Language> {
  return languageFrom((await headers()).get(LANGUAGE_HEADER));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const link = await linkOf((await params).linkId);
  return {
    title: link ? link.title : LINK_MESSAGES[await language()].notFoundTitle,
    robots: { index: false, follow: false },
  };
}

/**
 * A payment link's public page: counts the visit and shows what is sold. Nothing is made here:
 * the payer's "continue" (./start) makes the invoice, and the invoice page's coin choice the order.
 */
export default async function LinkRoute({ params, searchParams }: Props) {
  const link = await linkOf((await params).linkId);
  if (!link) notFound();
  const db = await getDatabase();
  await countLinkView(db, link.id);
  const lang = await language();
  const fiat = FIAT_CURRENCIES.includes(link.currency);
  const money = (units: string) =>
    formatPrice(formatDecimal({ value: BigInt(units), scale: link.price_decimals }), link.currency, lang, fiat);
  const status = linkStatus(
    { active: link.active, expiresAt: link.expires_at, maxUses: link.max_uses, paid: link.paid_count },
    new Date(),
  );
  const view: PublicLinkView = {
    linkId: link.id,
    title: link.title,
    description: link.description,
    image: link.image,
    merchantName: link.merchant_name,
    brand: { logo: link.brand_logo, color: link.brand_color },
    test: link.mode === 'test',
    open: status === 'ACTIVE',
    price: link.amount === null ? null : money(link.amount),
    maxQuantity: link.max_quantity,
    range:
      link.min_amount === null || link.max_amount === null
        ? null
        : { min: money(link.min_amount), max: money(link.max_amount), currency: link.currency },
  };
  const { error } = await searchParams;
  return (
    <LinkPage
      view={view}
      m={MESSAGES[lang]}
      lm={LINK_MESSAGES[lang]}
      language={lang}
      error={isLinkPageError(error) ? error : null}
    />
  );
}
