/**
 * Deliberately empty. Without a file here, Turbopack (whose root is the repository, see
 * next.config.mjs) picks up the gateway's own instrumentation.ts and starts the gateway inside
 * the baseline server.
 */
export function register(): void {}
