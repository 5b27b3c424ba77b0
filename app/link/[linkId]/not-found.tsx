import { headers } from 'next/headers';
import { PayerNotFound } from '@/components/pay/not-found';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { LINK_MESSAGES } from '@/lib/pay/link-messages';
import { INVOICE_MESSAGES } from '@/lib/pay/messages';

/** Unknown or malformed link id: answered 404 with this page, and a way back. */
export default async function LinkNotFound() {
  const language = languageFrom((await headers()).get(LANGUAGE_HEADER));
  const { notFoundTitle, notFoundBody } = LINK_MESSAGES[language];
  const im = INVOICE_MESSAGES[language];
  return <PayerNotFound title={notFoundTitle} body={notFoundBody} goBack={im.goBack} home={im.home} />;
}
