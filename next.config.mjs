/** @type {import('next').NextConfig} */
const nextConfig = {
  // Merchant clients post to `/api-gateway/make-order/` too; answer it instead of redirecting
  // (a 308 loses the body with many HTTP clients).
  skipTrailingSlashRedirect: true,
  // PGlite loads its WASM and data files from its own package directory at run time, and pg
  // has optional native parts, as secp256k1 (a prebuilt binary found by path) has: they stay plain
  // Node modules rather than bundled. prom-client too: one copy of it per process, not one per bundle.
  // pdfkit reads its standard fonts' metrics from its package directory, and fontkit its Unicode
  // tables: both stay Node modules (the receipts' PDFs, lib/receipts), as do subset-font,
  // harfbuzzjs and @cwasm/webp, which load their WASM (harfbuzz, libwebp) from their packages.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pg',
    'drizzle-orm',
    'secp256k1',
    'prom-client',
    'pdfkit',
    'fontkit',
    'subset-font',
    'harfbuzzjs',
    '@cwasm/webp',
  ],
  poweredByHeader: false,
  // forbidden() and unauthorized() (next/navigation) answer the dashboard's 403 and 401 pages
  // from pages and server actions (app/dashboard/session.ts).
  experimental: { authInterrupts: true },
  // `npm test` and `npm run typecheck` check the types; the build does not, so that it runs beside
  // the check instead of after it, and a first `npm start` is quicker.
  typescript: { ignoreBuildErrors: true },
  // On every response (pages, API, static files). The per-request CSP of pages is set in proxy.ts.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'x-content-type-options', value: 'nosniff' },
          // A payment link is a capability: never hand it to another site in a Referer.
          { key: 'referrer-policy', value: 'no-referrer' },
        ],
      },
    ];
  },
};

export default nextConfig;
