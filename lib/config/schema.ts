import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { FIAT_CURRENCIES, NETWORKS } from '../catalog';
import { formatPercent, parseDecimal, parsePercent } from '../money';
import { parseLiveChains, type LiveChainConfig } from './chains';
import { FRAME_ANCESTORS_HINT, parseFrameAncestors } from './frame-ancestors';

const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().positive();
/** zod says only "Invalid URL" for `ftp://x` or `pay.example.com`: say what is wanted instead. */
const httpUrl = z.url({
  protocol: /^https?$/,
  error: 'must be an http:// or https:// URL such as https://pay.example.com',
});

/** An IP address, or an IP range in CIDR notation (TRUSTED_PROXIES, WEBHOOK_ALLOWED_TARGETS). */
function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (extra !== undefined || family === 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/** A host name, an IP address, or an IP range in CIDR notation (WEBHOOK_ALLOWED_TARGETS). */
function isTargetPattern(entry: string): boolean {
  return (
    isAddressOrRange(entry) ||
    /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(entry)
  );
}

/**
 * The server's own address as a URL: what it prints when ready and, unless PUBLIC_BASE_URL says
 * otherwise, the origin of payment links. A wildcard HOST (all interfaces) is reached on loopback.
 */
function localBaseUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${isIP(reachable) === 6 ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * The market-data sources the rate service can use (lib/rates/sources, one file each; a test there
 * holds that it builds every name listed here). docs/rates.md describes them.
 */
export const RATE_SOURCE_NAMES = ['fixed', 'kraken', 'coinbase', 'coingecko'] as const;
export type RateSourceName = (typeof RATE_SOURCE_NAMES)[number];

/**
 * Codes RATE_FIXED may set: every catalog ticker and the fiat currencies the rate service prices,
 * except USD, the pivot every price is given in, which is 1 by definition.
 */
const RATE_FIXED_CODES = [
  ...new Set([...NETWORKS.flatMap((n) => n.currencies.map((c) => c.ticker)), ...FIAT_CURRENCIES]),
].filter((c) => c !== 'USD');

/** A price longer than this is no price (a decimal of 40 digits already says more than any market). */
const MAX_PRICE_CHARS = 40;

function listEntries(value: string): string[] {
  return value.split(/[\s,]+/).filter(Boolean);
}

/** RATE_SOURCES_LIVE / RATE_SOURCES_TEST: known names, lower case, each once. */
const rateSources = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .superRefine((value, ctx) => {
      const names = listEntries(value.toLowerCase());
      const unknown = names.filter((n) => !(RATE_SOURCE_NAMES as readonly string[]).includes(n));
      if (names.length === 0 || unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `${unknown.length > 0 ? `unknown rate source ${unknown.map((n) => `"${n}"`).join(', ')}: ` : ''}must be a comma-separated list of ${RATE_SOURCE_NAMES.join(', ')}`,
        });
      }
    })
    .transform((value) => [...new Set(listEntries(value.toLowerCase()))] as RateSourceName[]);

/** RATE_FIXED: `BTC=65000,EUR=1.1`, known codes and positive plain decimals. */
const rateFixed = z
  .string()
  .default('')
  .superRefine((value, ctx) => {
    for (const entry of listEntries(value)) {
      const [code = '', price, extra] = entry.split('=');
      const upper = code.toUpperCase();
      if (price === undefined || extra !== undefined) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" must be CODE=PRICE, such as BTC=65000,EUR=1.1` });
      } else if (!RATE_FIXED_CODES.includes(upper)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${code}" is not a currency the rate service prices (${RATE_FIXED_CODES.join(', ')}; USD is always 1)`,
        });
      } else {
        const parsed = price.length <= MAX_PRICE_CHARS ? parseDecimal(price) : undefined;
        if (!parsed || parsed.value === 0n)
          ctx.addIssue({
            code: 'custom',
            message: `the price of ${upper}, "${price}", must be a positive plain decimal such as 65000 or 1.1`,
          });
      }
    }
  })
  .transform((value) =>
    Object.fromEntries(
      listEntries(value).map((entry) => {
        const [code = '', price = ''] = entry.split('=');
        return [code.toUpperCase(), price];
      }),
    ),
  );

/** RATE_MAX_SPREAD_PERCENT: a percentage above 0 and at most 100, kept as its canonical text. */
const ratePercent = z
  .string()
  .default('3')
  .refine((value) => {
    const percent = parsePercent(value);
    return percent !== undefined && percent.value > 0n && percent.value <= 100n * 10n ** BigInt(percent.scale);
  }, 'must be a percentage above 0 and at most 100, such as 3 or 2.5')
  .transform((value) => formatPercent(parsePercent(value)!));

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
    TRUSTED_PROXIES: z
      .string()
      .default('')
      .refine(
        (v) => listEntries(v).every(isAddressOrRange),
        'must be IP addresses or CIDR ranges of your reverse proxies (10.0.0.5, 10.0.0.0/8, fd00::/8), separated by commas or spaces',
      ),
    LINK_INVOICES_PER_MINUTE: positiveInt.max(100_000).default(30),
    LINK_INVOICES_PER_CLIENT_PER_MINUTE: positiveInt.max(100_000).default(5),
    LINK_INVOICES_GATEWAY_PER_MINUTE: positiveInt.max(1_000_000).default(600),
    PDF_RENDERS_PER_CLIENT_PER_MINUTE: positiveInt.max(100_000).default(20),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(30),
    DEMO_STORE: z.enum(['true', 'false']).default('true'),
    STORE_GATEWAY_URL: httpUrl.optional(),
    ADDRESS_POOL_SIZE: positiveInt.min(16).max(100_000).default(256),
    RUN_WORKERS: z.enum(['true', 'false']).optional(),
    WATCH_INTERVAL_MS: positiveInt.min(50).max(600_000).default(1000),
    READY_MAX_LAG_BLOCKS: positiveInt.max(1_000_000).default(10),
    READY_MAX_PASS_AGE_SECONDS: positiveInt.max(86_400).default(120),
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (a bearer token for /metrics)').optional(),
    WORKER_OPS_PORT: port.optional(),
    WORKER_OPS_HOST: z.string().min(1).default('127.0.0.1'),
    SANDBOX_BLOCK_SECONDS: z.coerce.number().min(0).max(3600).default(2),
    SANDBOX_CONFIRMATIONS: positiveInt.max(100).default(2),
    RISK_DENY_LIST: z.string().default(''),
    FRAME_ANCESTORS: z
      .string()
      .default('')
      .refine((v) => parseFrameAncestors(v) !== null, FRAME_ANCESTORS_HINT),
    WEBHOOK_TIMEOUT_MS: positiveInt.min(100).max(60_000).default(10_000),
    WEBHOOK_CONCURRENCY: positiveInt.max(1000).default(32),
    WEBHOOK_MERCHANT_CONCURRENCY: positiveInt.max(1000).default(8),
    WEBHOOK_POLL_MS: positiveInt.min(10).max(60_000).default(1000),
    WEBHOOK_ENDPOINT_DISABLE_DAYS: positiveInt.min(1).max(30).default(3),
    EVENT_RETENTION_DAYS: positiveInt.min(1).max(3650).default(30),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
    WEBHOOK_ALLOWED_TARGETS: z
      .string()
      .default('')
      .refine(
        (v) =>
          v
            .split(/[\s,]+/)
            .filter(Boolean)
            .every(isTargetPattern),
        'must be host names, IP addresses or CIDR ranges (10.0.0.0/8, fd00::/8), separated by commas or spaces',
      ),
    RATE_SOURCES_LIVE: rateSources('kraken,coinbase,coingecko'),
    // Test keys price offline by default: a fresh start works without the internet.
    RATE_SOURCES_TEST: rateSources('fixed'),
    RATE_FIXED: rateFixed,
    RATE_CACHE_SECONDS: positiveInt.max(3600).default(30),
    RATE_MAX_AGE_SECONDS: positiveInt.max(86_400).default(300),
    RATE_MAX_SPREAD_PERCENT: ratePercent,
    RATE_TIMEOUT_MS: positiveInt.min(100).max(60_000).default(5000),
    RATE_KRAKEN_URL: httpUrl.optional(),
    RATE_COINBASE_URL: httpUrl.optional(),
    RATE_COINGECKO_URL: httpUrl.optional(),
    RATE_COINGECKO_API_KEY: z.string().min(1).max(200).optional(),
    // Decimals allowed: a timeout of seconds (0.25 is 15 s) lets a test watch sessions end without waiting minutes.
    DASHBOARD_SESSION_IDLE_MINUTES: z.coerce.number().min(0.1).max(1440).default(30),
    DASHBOARD_SESSION_MAX_HOURS: positiveInt.min(1).max(720).default(12),
    // Holds the server's password: read here only, never logged (docs/mail.md).
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com')
      .optional(),
    MAIL_FROM: z.email('must be an e-mail address such as payments@shop.example').max(254).optional(),
    MAIL_CONCURRENCY: positiveInt.max(100).default(4),
    MAIL_TEST_MODE: z.enum(['catch', 'send']).default('catch'),
    MAIL_TIMEOUT_MS: positiveInt.min(100).max(120_000).default(30_000),
    MAIL_POLL_MS: positiveInt.min(10).max(60_000).default(1000),
    MAIL_RECIPIENT_HOURLY_LIMIT: positiveInt.max(1000).default(10),
  })
  .superRefine((env, ctx) => {
    // Mail sent to real people needs a sender address the operator owns.
    if (env.SMTP_URL && !env.MAIL_FROM) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL_FROM'],
        message: 'is required with SMTP_URL: the address the gateway sends from, such as payments@shop.example',
      });
    }
    // A cached price is used for RATE_CACHE_SECONDS without asking again; a price older than
    // RATE_MAX_AGE_SECONDS is never used: the second bound cannot be the shorter one.
    if (env.RATE_MAX_AGE_SECONDS < env.RATE_CACHE_SECONDS) {
      ctx.addIssue({
        code: 'custom',
        path: ['RATE_MAX_AGE_SECONDS'],
        message: `must be at least RATE_CACHE_SECONDS (${env.RATE_CACHE_SECONDS})`,
      });
    }
    // A session idle for longer than it may live at all would make the idle timeout meaningless.
    if (env.DASHBOARD_SESSION_IDLE_MINUTES > env.DASHBOARD_SESSION_MAX_HOURS * 60) {
      ctx.addIssue({
        code: 'custom',
        path: ['DASHBOARD_SESSION_IDLE_MINUTES'],
        message: `must be at most DASHBOARD_SESSION_MAX_HOURS in minutes (${env.DASHBOARD_SESSION_MAX_HOURS * 60})`,
      });
    }
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
    /**
     * Reverse proxies whose X-Forwarded-For is believed (lib/security clientAddressOf); empty: the
     * connection's peer is the client.
     */
    trustedProxies: listEntries(env.TRUSTED_PROXIES),
    /** Invoices payment links may make per minute: per link, per link and client address, gateway-wide (lib/links). */
    linkInvoicesPerMinute: {
      link: env.LINK_INVOICES_PER_MINUTE,
      client: env.LINK_INVOICES_PER_CLIENT_PER_MINUTE,
      gateway: env.LINK_INVOICES_GATEWAY_PER_MINUTE,
    },
    /** Receipt and invoice PDFs one client address may have drawn per minute (lib/receipts). */
    pdfRendersPerClientPerMinute: env.PDF_RENDERS_PER_CLIENT_PER_MINUTE,
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
    /** /readyz: a watched network further behind its tip than this, or without a good pass for longer, is not ready. */
    readyMaxLagBlocks: env.READY_MAX_LAG_BLOCKS,
    readyMaxPassAgeMs: env.READY_MAX_PASS_AGE_SECONDS * 1000,
    /** /metrics answers other addresses than loopback only with `Authorization: Bearer METRICS_TOKEN`. */
    metricsToken: env.METRICS_TOKEN,
    /** `npm run worker` answers /healthz, /readyz, /metrics and /ops/chains there when set. */
    workerOps: env.WORKER_OPS_PORT === undefined ? undefined : { port: env.WORKER_OPS_PORT, host: env.WORKER_OPS_HOST },
    sandboxBlockMs: Math.round(env.SANDBOX_BLOCK_SECONDS * 1000),
    sandboxConfirmations: env.SANDBOX_CONFIRMATIONS,
    riskDenyList: env.RISK_DENY_LIST.split(/[\s,]+/).filter(Boolean),
    /** Sites allowed to frame the payment page (CSP frame-ancestors), besides the gateway itself. */
    frameAncestors: parseFrameAncestors(env.FRAME_ANCESTORS) ?? [],
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    webhookConcurrency: env.WEBHOOK_CONCURRENCY,
    webhookMerchantConcurrency: env.WEBHOOK_MERCHANT_CONCURRENCY,
    webhookPollMs: env.WEBHOOK_POLL_MS,
    /** A webhook endpoint whose every delivery failed for this long is disabled (lib/webhooks). */
    webhookEndpointDisableMs: env.WEBHOOK_ENDPOINT_DISABLE_DAYS * 24 * 60 * 60 * 1000,
    /** How long events are kept for `events/list` (lib/events). */
    eventRetentionDays: env.EVENT_RETENTION_DAYS,
    webhookAllowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    /** Unset: every message is kept by the built-in mail catcher (the dashboard's Mail page). */
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? 'gateway@localhost.invalid',
    mailConcurrency: env.MAIL_CONCURRENCY,
    mailTimeoutMs: env.MAIL_TIMEOUT_MS,
    /** `send`: test mode's mail goes to SMTP_URL too (a merchant trying their flow, the tests); else the catcher keeps it. */
    mailSendTestMode: env.MAIL_TEST_MODE === 'send',
    mailPollMs: env.MAIL_POLL_MS,
    mailRecipientHourlyLimit: env.MAIL_RECIPIENT_HOURLY_LIMIT,
    /** Host names and IP addresses or CIDR ranges webhooks may reach even when they are private. */
    webhookAllowedTargets: env.WEBHOOK_ALLOWED_TARGETS.split(/[\s,]+/).filter(Boolean),
    /** The rate sources (lib/rates) of each mode, in order, each once. */
    rateSourcesLive: env.RATE_SOURCES_LIVE,
    rateSourcesTest: env.RATE_SOURCES_TEST,
    /** Entries replacing the fixed source's USD prices, by upper-case code. */
    rateFixed: env.RATE_FIXED,
    rateCacheMs: env.RATE_CACHE_SECONDS * 1000,
    rateMaxAgeMs: env.RATE_MAX_AGE_SECONDS * 1000,
    /** Canonical decimal text, such as "3" or "2.5". */
    rateMaxSpreadPercent: env.RATE_MAX_SPREAD_PERCENT,
    rateTimeoutMs: env.RATE_TIMEOUT_MS,
    rateKrakenUrl: env.RATE_KRAKEN_URL?.replace(/\/+$/, ''),
    rateCoinbaseUrl: env.RATE_COINBASE_URL?.replace(/\/+$/, ''),
    rateCoingeckoUrl: env.RATE_COINGECKO_URL?.replace(/\/+$/, ''),
    /** Sent as the x-cg-demo-api-key header; never logged. */
    rateCoingeckoApiKey: env.RATE_COINGECKO_API_KEY,
    /** A dashboard session ends after this long without a request, and at the latest after the second. */
    dashboardSessionIdleMs: Math.round(env.DASHBOARD_SESSION_IDLE_MINUTES * 60_000),
    dashboardSessionMaxMs: env.DASHBOARD_SESSION_MAX_HOURS * 3_600_000,
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
    const lines = [
      ...(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)),
      ...live.issues,
    ].map((l) => `  ${l}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...result.data, liveChains: live.chains };
}
