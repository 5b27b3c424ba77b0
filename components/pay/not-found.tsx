/**
 * The 404 page of an unknown order or invoice, in the page's language: what happened, and a way
 * out (back to the page that linked here when there is one, or the start page).
 */
import Link from 'next/link';
import { GoBack } from '../invoice/go-back';
import { BUTTON } from './ui';

export function PayerNotFound({
  title,
  body,
  goBack,
  home,
}: {
  title: string;
  body: string;
  goBack: string;
  home: string;
}) {
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-title font-semibold">{title}</h1>
      <p className="mt-2">{body}</p>
      <p className="mt-4 flex flex-wrap items-center gap-4">
        <GoBack text={goBack} className={BUTTON} />
        <Link href="/" className="font-medium text-link underline hover:text-link-hover focus-ring">
          {home}
        </Link>
      </p>
    </main>
  );
}
