import Link from 'next/link';

/** Any path no route answers: a 404 that says so and offers a way out, not the framework's bare page. */
export default function NotFound() {
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="mt-2">
        There is no page at this address. A payment link may have been copied incompletely: check it with the shop that
        sent it.
      </p>
      <p className="mt-4">
        <Link href="/" className="font-medium underline">
          Go to the start page
        </Link>
      </p>
    </main>
  );
}
