import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseLiveChains, type LiveChainConfig } from './chains';
import { FRAME_ANCESTORS_HINT, parseFrameAncestors } from './frame-ancestors';

const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().positive();
/** zod says only "Invalid URL" for `ftp://x` or `pay.example.com`: say what is wanted instead. */
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL such as https://pay.example.com' });

/** A host name, an IP address, or an IP range in CIDR notation (WEBHOOK_ALLOWED_TARGETS). */
function isTargetPattern(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  if (bits === undefined) return isIP(address) !== 0 || /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(address);
  const family = isIP(address);
  return family !== 0 && /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * The server's own address as a URL: what it prints when ready and, unless PUBLIC_BASE_URL says
 * otherwise, the origin of payment links. A wildcard HOST (all interfaces) is reached on loopback.
 */
function localBaseUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${isIP(reachable) === 6 ? `[${reachable}]` : reachable}:${port}`;
}

const envSchema = z
  .object({
    PORT: port.default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    PUBLIC_BASE_URL: httpUrl.optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    DB_POOL_SIZE: positiveInt.max(200).default(10),
    NONCE_WINDOW_DAYS: positiveInt.max(3650).default(7),
    API_MAX_IN_FLIGHT: positiveInt.default(256),
    API_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(0),
    API_BODY_TIMEOUT_SECONDS: positiveInt.max(30).default(10),
    API_SLOW_BODIES_PER_CLIENT: positiveInt.max(100_000).default(16),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(30),
    DEMO_STORE: z.enum(['true', 'false']).default('true'),
    STORE_GATEWAY_URL: httpUrl.optional(),
    ADDRESS_POOL_SIZE: positiveInt.min(16).max(100_000).default(256),
    RUN_WORKERS: z.enum(['true', 'false']).optional(),
    WATCH_INTERVAL_MS: positiveInt.min(50).max(600_000).default(1000),
    SANDBOX_BLOCK_SECONDS: z.coerce.number().min(0).max(3600).default(2),
    SANDBOX_CONFIRMATIONS: positiveInt.max(100).default(2),
    RISK_DENY_LIST: z.string().default(''),
    FRAME_ANCESTORS: z.string().default('').refine((v) => parseFrameAncestors(v) !== null, FRAME_ANCESTORS_HINT),
    WEBHOOK_TIMEOUT_MS: positiveInt.min(100).max(60_000).default(10_000),
    WEBHOOK_CONCURRENCY: positiveInt.max(1000).default(32),
    WEBHOOK_MERCHANT_CONCURRENCY: positiveInt.max(1000).default(8),
    WEBHOOK_POLL_MS: positiveInt.min(10).max(60_000).default(1000),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
    WEBHOOK_ALLOWED_TARGETS: z
      .string()
      .default('')
      .refine(
        (v) => v.split(/[\s,]+/).filter(Boolean).every(isTargetPattern),
        'must be host names, IP addresses or CIDR ranges (10.0.0.0/8, fd00::/8), separated by commas or spaces',
      ),
  })
  .transform((env) => ({
    port: env.PORT,
    host: env.HOST,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? localBaseUrl(env.HOST, env.PORT)).replace(/\/+$/, ''),
    /** Where a process on this machine reaches the server (the CLI's control endpoint). */
    localBaseUrl: localBaseUrl(env.HOST, env.PORT),
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    appSecret: env.APP_SECRET,
    dbPoolSize: env.DB_POOL_SIZE,
    nonceWindowDays: env.NONCE_WINDOW_DAYS,
    apiMaxInFlight: env.API_MAX_IN_FLIGHT,
    apiRateLimit: env.API_RATE_LIMIT,
    apiBodyTimeoutMs: env.API_BODY_TIMEOUT_SECONDS * 1000,
    apiSlowBodiesPerClient: env.API_SLOW_BODIES_PER_CLIENT,
    logLevel: env.LOG_LEVEL,
    keyCacheTtlMs: env.KEY_CACHE_TTL_SECONDS * 1000,
    demoStore: env.DEMO_STORE === 'true',
    /** The gateway the demo store calls (PUBLIC_BASE_URL when unset): any compatible gateway works. */
    storeGatewayUrl: env.STORE_GATEWAY_URL?.replace(/\/+$/, ''),
    addressPoolSize: env.ADDRESS_POOL_SIZE,
    // The embedded database has one owner, the server, so its workers run inside it; with
    // PostgreSQL they run as `npm run worker` processes unless asked for here.
    runWorkers: env.RUN_WORKERS === undefined ? !env.DATABASE_URL : env.RUN_WORKERS === 'true',
    watchIntervalMs: env.WATCH_INTERVAL_MS,
    sandboxBlockMs: Math.round(env.SANDBOX_BLOCK_SECONDS * 1000),
    sandboxConfirmations: env.SANDBOX_CONFIRMATIONS,
    riskDenyList: env.RISK_DENY_LIST.split(/[\s,]+/).filter(Boolean),
    /** Sites allowed to frame the payment page (CSP frame-ancestors), besides the gateway itself. */
    frameAncestors: parseFrameAncestors(env.FRAME_ANCESTORS) ?? [],
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    webhookConcurrency: env.WEBHOOK_CONCURRENCY,
    webhookMerchantConcurrency: env.WEBHOOK_MERCHANT_CONCURRENCY,
    webhookPollMs: env.WEBHOOK_POLL_MS,
    webhookAllowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    /** Host names and IP addresses or CIDR ranges webhooks may reach even when they are private. */
    webhookAllowedTargets: env.WEBHOOK_ALLOWED_TARGETS.split(/[\s,]+/).filter(Boolean),
  }));

/** The environment's settings, plus the live networks (lib/config/chains.ts). */
export type Config = z.output<typeof envSchema> & { liveChains: LiveChainConfig[] };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * zod's words for a variable that is not a number ("Invalid input: expected number, received NaN")
 * tell an operator nothing; every numeric variable gets these instead (undefined keeps zod's).
 */
function plainWords(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.expected === 'number') return 'must be a number';
  if (issue.expected === 'int') return 'must be a whole number';
  return undefined;
}

/** Parses the environment; a bad value stops start-up with a message naming the variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set" (docker-compose and .env files write them that way).
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned, { error: plainWords });
  const live = parseLiveChains(cleaned);
  if (!result.success || live.issues.length > 0) {
    const lines = [...(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)), ...live.issues].map((l) => `  ${l}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...result.data, liveChains: live.chains };
}
