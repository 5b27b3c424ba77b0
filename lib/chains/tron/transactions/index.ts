/**
 * Tron transaction code, client-safe: building a collection plan's transactions (the gateway)
 * and decoding, checking and signing them (scripts/signer, on the merchant's machine). Like the
 * Bitcoin family's (../../utxo/transactions), it imports nothing of the database, the
 * configuration or the sandbox, and nothing server-only (eslint/architecture.mjs `CLIENT_SAFE_FOLDERS`).
 */
export * from './address';
export * from './chain-id';
export * from './protobuf';
export * from './refund';
export * from './signing';
export * from './steps';
