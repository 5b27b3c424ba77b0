import Link from 'next/link';

/** A claim link that does not work: one page for unknown, expired, replaced and already used links, with a way out. */
export default function RefundClaimNotFound() {
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-xl font-semibold">This refund link is not valid</h1>
      <p className="mt-2">
        It expired, was already used to confirm an address, or was replaced by a newer link. Ask the merchant for a new
        one.
      </p>
      <p className="mt-4">
        <Link href="/" className="font-medium underline">
          Go to the start page
        </Link>
      </p>
    </main>
  );
}
