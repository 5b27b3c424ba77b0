import { SERVER_EXTERNAL_PACKAGES } from './scripts/lib/server-external-packages.mjs';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Merchant clients post to `/api-gateway/make-order/` too; answer it instead of redirecting
  // (a 308 loses the body with many HTTP clients).
  skipTrailingSlashRedirect: true,
  // Plain Node modules, not bundled: why each, in the list's own file (the CLIs' bundles share it);
  // drizzle-orm too, as it has been since the first build (the CLIs bundle it: see the list's file).
  serverExternalPackages: [...SERVER_EXTERNAL_PACKAGES, 'drizzle-orm'],
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
