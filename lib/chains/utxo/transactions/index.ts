/**
 * Transaction code of the Bitcoin family, client-safe: building collection PSBTs (the gateway) and
 * checking and signing them (scripts/signer, on the merchant's machine). It imports nothing of the
 * database, the configuration or the sandbox, and nothing server-only (eslint/architecture.mjs
 * `CLIENT_SAFE_FOLDERS`), so that the signer carries no code that could open the gateway's
 * storage, and the gateway none that needs a private key to run.
 */
export * from './descriptor';
export * from './networks';
export * from './output-scripts';
export * from './psbt';
export * from './raw';
export * from './signing';
export * from './submission';
export * from './verify';
