import 'server-only';

/**
 * What a gateway process holds once, whichever copy of a module asks. Next.js bundles server code
 * separately for instrumentation and for each route, and the node:http front (scripts/lib/
 * http-server.mjs) loads modules outside the bundle, so a module-level variable can exist more than
 * once in one process: a second database handle, a second flock on the data directory, a
 * rate limit counted per bundle. Each value therefore lives on globalThis under a Symbol.for key,
 * which every copy of every module resolves to the same symbol; this is the one place those keys
 * are made, and the list below is everything a process holds that way.
 *
 * Each slot has one owner module, which alone decides the type of its value.
 */
export const PROCESS_SLOTS = {
  config: 'the configuration parsed from the environment (lib/config)',
  logLevel: 'LOG_LEVEL, handed by lib/config to lib/log when it parses the configuration (lib/log)',
  database: 'the database, opened and migrated on first use (lib/db)',
  dataDirLocks: 'the lock descriptors held on data directories, by real path (lib/db/lock.ts)',
  controlToken: "the token the CLI's control endpoint accepts (lib/server/control.ts)",
  // scripts/lib/http-server.mjs is plain Node.js outside the bundle and cannot import this module:
  // it spells the key out as Symbol.for('gateway.api.front'); both must stay the same.
  'api.front': 'the merchant API front handed to the HTTP server, and start-up waiters (lib/api/http-front.ts)',
  'api.inFlight': 'the merchant API requests in flight (lib/api/route.ts)',
  'api.shed': 'the requests shed since the last summary log line (lib/api/route.ts)',
  'api.slowBodies': 'slow request bodies per client, and bodies being read (lib/api/slow-bodies.ts)',
  rateBuckets: 'the token bucket of each rate-limited key: API keys, payment links (lib/security/rate-limit.ts)',
  apiKeyCache: 'API keys looked up recently, known or not (lib/merchants/keys.ts)',
  apiKeyUse: 'the last use of each API key since the last write of them (lib/merchants/usage.ts)',
  addressesDerived: 'the highest address index derived per network and mode (lib/addresses)',
  addressRefills: 'the address pool refill under way per network and mode (lib/addresses)',
  poolKeyFingerprints: 'the fingerprint of each key the address pools derive from (lib/addresses)',
  derivationThread: 'the worker thread that derives addresses (lib/chains/derivation-thread.ts)',
  liveNetworks: 'the live networks and their adapters, built from the configuration (lib/chains/live.ts)',
  chainHealth: "each network's watcher health (lib/watcher/health.ts)",
  workers: 'how many sets of workers this process runs, started and not stopped (lib/watcher)',
  watcherWakers: 'how to start a pass of each running watcher at once, on a new block (lib/watcher/wake.ts)',
  'merchants.balanceIds': "each merchant's advance balance id per mode (lib/merchants/balances.ts)",
  metrics: 'the Prometheus registry and every metric of the process (lib/metrics)',
  'receipts.renders': 'the PDF renders running and waiting for a turn (lib/receipts/render-gate.ts)',
  rates: 'the exchange-rate service of each mode, with its cache (lib/rates)',
  // Not a value: its key is the brand every copy of DomainError sets and recognises.
  domainError: "the brand of a domain error, recognised by every bundle's copy of the class (lib/errors)",
} as const;

export type ProcessSlotName = keyof typeof PROCESS_SLOTS;

type Holder = Record<symbol, unknown>;

/** The process-wide key of a slot: the same symbol in every bundle and in plain Node.js. */
export function processSlotKey(name: ProcessSlotName): symbol {
  return Symbol.for(`gateway.${name}`);
}

/** The slot's value, created by `create` on first use in this process. */
export function processSlot<T>(name: ProcessSlotName, create: () => T): T {
  return ((globalThis as Holder)[processSlotKey(name)] ??= create()) as T;
}

/** The slot's value, or undefined while nothing was put there. */
export function peekProcessSlot<T>(name: ProcessSlotName): T | undefined {
  return (globalThis as Holder)[processSlotKey(name)] as T | undefined;
}

export function setProcessSlot<T>(name: ProcessSlotName, value: T): void {
  (globalThis as Holder)[processSlotKey(name)] = value;
}

/** Empties the slot: the next `processSlot` creates its value again. */
export function forgetProcessSlot(name: ProcessSlotName): void {
  delete (globalThis as Holder)[processSlotKey(name)];
}
