import { headers } from 'next/headers';
import { PayerNotFound } from '@/components/pay/not-found';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { INVOICE_MESSAGES, MESSAGES } from '@/lib/pay/messages';

/** Unknown or malformed order id: answered 404 with this page, and a way out. */
export default async function OrderNotFound() {
  const language = languageFrom((await headers()).get(LANGUAGE_HEADER));
  const [m, im] = [MESSAGES[language], INVOICE_MESSAGES[language]];
  return <PayerNotFound title={m.notFoundTitle} body={m.notFoundBody} goBack={im.goBack} home={im.home} />;
}
