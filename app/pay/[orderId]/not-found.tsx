import { headers } from 'next/headers';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { MESSAGES } from '@/lib/pay/messages';

/** Unknown or malformed order id: answered 404 with this page. */
export default async function OrderNotFound() {
  const m = MESSAGES[languageFrom((await headers()).get(LANGUAGE_HEADER))];
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-xl font-semibold">{m.notFoundTitle}</h1>
      <p className="mt-2">{m.notFoundBody}</p>
    </main>
  );
}
