import 'server-only';
/**
 * The dispatcher's settings: read from the configuration (the WEBHOOK_* variables) once, when a
 * dispatcher starts; tests and benchmarks override single fields. The lease is derived from the
 * attempt timeout so that a row is never claimed again while an attempt of it can still be running.
 */
import { config } from '../config';
import { RETRY_DELAYS_MS, RETRY_JITTER, type RetrySchedule } from './schedule';
import type { TargetPolicy } from './ssrf';

const SECOND = 1000;

export interface DispatcherOptions extends RetrySchedule {
  /** Cut of one attempt: resolution, connection and answer (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Attempts in flight per process (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts in flight per merchant and process (WEBHOOK_MERCHANT_CONCURRENCY). */
  merchantConcurrency: number;
  /** Poll interval when nothing wakes the dispatcher (WEBHOOK_POLL_MS). */
  pollMs: number;
  policy: TargetPolicy;
  /** Recorded as the lease owner: which process holds a row. */
  owner: string;
  /** How long a claim holds a row; longer than any attempt. */
  leaseMs: number;
  /** An endpoint whose every delivery failed for this long is disabled (WEBHOOK_ENDPOINT_DISABLE_DAYS). */
  endpointDisableAfterMs: number;
  /**
   * The time an attempt is signed and recorded at: the signature's timestamp, which of a rolled
   * secret's two secrets sign, which key signs, an endpoint's days of failure. Tests move it.
   */
  clock: () => Date;
}

export function targetPolicy(): TargetPolicy {
  const cfg = config();
  return {
    allowPrivate: cfg.webhookAllowPrivateTargets,
    allowed: cfg.webhookAllowedTargets,
    ownOrigin: new URL(cfg.publicBaseUrl).origin,
  };
}

export function dispatcherOptions(overrides: Partial<DispatcherOptions> = {}): DispatcherOptions {
  const cfg = config();
  const timeoutMs = overrides.timeoutMs ?? cfg.webhookTimeoutMs;
  return {
    timeoutMs,
    concurrency: cfg.webhookConcurrency,
    merchantConcurrency: cfg.webhookMerchantConcurrency,
    pollMs: cfg.webhookPollMs,
    policy: targetPolicy(),
    retryDelaysMs: RETRY_DELAYS_MS,
    jitter: RETRY_JITTER,
    owner: `pid-${process.pid}`,
    leaseMs: timeoutMs + 5 * SECOND,
    endpointDisableAfterMs: cfg.webhookEndpointDisableMs,
    clock: () => new Date(),
    ...overrides,
  };
}
