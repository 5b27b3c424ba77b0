/**
 * XRP Ledger transaction code, client-safe: building and checking a refund's Payment (the gateway)
 * and checking and signing it (scripts/signer, on the merchant's machine). It imports nothing of
 * the database, the configuration or the sandbox, and nothing server-only (eslint/architecture.mjs
 * `CLIENT_SAFE_FOLDERS`).
 */
export * from './refund';
export * from './reserve';
