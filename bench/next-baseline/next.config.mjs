import path from 'node:path';

// The repository root: node_modules and ../../baseline-store.ts live there, so Turbopack must
// treat it as the project root, while the build output stays in bench/next-baseline/.next.
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Same as the gateway: database drivers stay plain Node modules, not bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  turbopack: { root },
  outputFileTracingRoot: root,
};

export default nextConfig;
