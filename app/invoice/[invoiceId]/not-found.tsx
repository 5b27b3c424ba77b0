import { headers } from 'next/headers';
import { PayerNotFound } from '@/components/pay/not-found';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { INVOICE_MESSAGES } from '@/lib/pay/messages';

/** Unknown or malformed invoice id: answered 404 with this page, and a way back. */
export default async function InvoiceNotFound() {
  const im = INVOICE_MESSAGES[languageFrom((await headers()).get(LANGUAGE_HEADER))];
  return <PayerNotFound title={im.notFoundTitle} body={im.notFoundBody} goBack={im.goBack} home={im.home} />;
}
