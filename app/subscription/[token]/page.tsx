import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { SubscriberLinkGone, SubscriberPage } from '@/components/subscription/subscriber-page';
import { getDatabase } from '@/lib/db';
import { SUBSCRIPTION_MESSAGES } from '@/lib/mail';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { LINK_MESSAGES } from '@/lib/pay/link-messages';
import { subscriberView } from '@/lib/subscriptions';

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

async function payerLanguage() {
  return languageFrom((await headers()).get(LANGUAGE_HEADER));
}

/** The page's title in the subscriber's language (not the gateway's English default); the link is theirs alone. */
export async function generateMetadata(): Promise<Metadata> {
  return { title: SUBSCRIPTION_MESSAGES[await payerLanguage()].page.title, robots: { index: false, follow: false } };
}

/** The subscriber's page, opened by a mail's link (lib/subscriptions/page.ts). */
export default async function SubscriptionRoute({ params, searchParams }: Props) {
  const language = await payerLanguage();
  const t = SUBSCRIPTION_MESSAGES[language].page;
  const { token } = await params;
  const { confirm, canceled, error } = await searchParams;
  const view = await subscriberView(await getDatabase(), token, language, {
    confirm: typeof confirm === 'string' ? confirm : null,
    canceled: canceled === '1',
  });
  // The one refusal of the pay form (./pay/route.ts), in the words the payment link page uses for it.
  const rateError = error === 'rate' ? LINK_MESSAGES[language].errors.rate : null;
  return view ? <SubscriberPage view={view} t={t} rateError={rateError} /> : <SubscriberLinkGone t={t} />;
}
