/**
 * Transaction code of the EVM networks, client-safe: the sweeper contract and its address, building
 * collection plans (the gateway) and checking and signing them (scripts/signer, on the merchant's
 * machine). It imports nothing of the database, the configuration or the sandbox, and nothing
 * server-only (eslint/architecture.mjs `CLIENT_SAFE_FOLDERS`), like lib/chains/utxo/transactions.
 */
export * from './sweeper';
export * from './plan';
export * from './signing';
export * from './refund';
export type * from './types';
