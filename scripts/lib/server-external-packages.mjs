// Packages that stay plain Node modules, loaded from node_modules at run time rather than bundled:
// by the server's build (next.config.mjs, serverExternalPackages) and by the CLIs' bundles
// (scripts/cli.mjs). PGlite loads its WASM and data files from its own package directory, and pg
// has optional native parts, as secp256k1 (a prebuilt binary found by path) has. prom-client: one
// copy of it per process, not one per bundle. pdfkit reads its standard fonts' metrics from its
// package directory, and fontkit its Unicode tables (the receipts' PDFs, lib/receipts), as do
// subset-font, harfbuzzjs and @cwasm/webp, which load their WASM (harfbuzz, libwebp) from their
// packages. drizzle-orm is kept out of the server's build only (next.config.mjs): a CLI bundles it, as
// Node resolving its hundreds of ES modules at each start cost as much again as the rest of the
// start (`users --help`: 1.62 against 0.78 CPU-seconds, 315 against 155 MiB).
export const SERVER_EXTERNAL_PACKAGES = [
  '@electric-sql/pglite',
  'pg',
  'secp256k1',
  'prom-client',
  'pdfkit',
  'fontkit',
  'subset-font',
  'harfbuzzjs',
  '@cwasm/webp',
];
