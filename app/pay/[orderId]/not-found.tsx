import { headers } from 'next/headers';
import Link from 'next/link';
import { GoBack } from '@/components/invoice/go-back';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { INVOICE_MESSAGES, MESSAGES } from '@/lib/pay/messages';

/** Unknown or malformed order id: answered 404 with this page, and a way out (back, or the start page). */
export default async function OrderNotFound() {
  const language = languageFrom((await headers()).get(LANGUAGE_HEADER));
  const [m, im] = [MESSAGES[language], INVOICE_MESSAGES[language]];
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-xl font-semibold">{m.notFoundTitle}</h1>
      <p className="mt-2">{m.notFoundBody}</p>
      <p className="mt-4 flex flex-wrap items-center gap-4">
        <GoBack text={im.goBack} className="rounded-md bg-slate-900 px-4 py-2 font-medium text-white dark:bg-slate-100 dark:text-slate-900" />
        <Link href="/" className="font-medium underline">
          {im.home}
        </Link>
      </p>
    </main>
  );
}
