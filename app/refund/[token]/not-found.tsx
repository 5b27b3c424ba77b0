import { headers } from 'next/headers';
import { PayerNotFound } from '@/components/pay/not-found';
import { REFUND_CLAIM_MESSAGES } from '@/lib/mail';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { INVOICE_MESSAGES } from '@/lib/pay/messages';

/** A claim link that does not work: one page, in the payer's language, for unknown, expired, replaced and already used links, with a way out. */
export default async function RefundClaimNotFound() {
  const language = languageFrom((await headers()).get(LANGUAGE_HEADER));
  const { notFoundTitle, notFoundBody } = REFUND_CLAIM_MESSAGES[language].page;
  const im = INVOICE_MESSAGES[language];
  return <PayerNotFound title={notFoundTitle} body={notFoundBody} goBack={im.goBack} home={im.home} />;
}
