import 'server-only';
/**
 * The process's Prometheus metrics (prom-client): one registry per process, whichever bundle asks
 * (lib/process), and every metric defined here so that names, labels and help live in one place.
 * The parts of the gateway that see an event record it (the API wrapper, the watcher, the webhook
 * dispatcher); lib/ops sets the figures read from the database at each scrape and serves the text.
 *
 * Labels are bounded sets only (operation names, HTTP statuses, networks, modes, outcomes): never
 * a merchant, an order or a URL, which would grow a series per value.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { processSlot } from '../process';

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    apiRequests: new Counter({
      name: 'gateway_api_requests_total',
      help: 'Merchant API requests answered, by operation and HTTP status (503 shed included).',
      labelNames: ['operation', 'status'] as const,
      registers,
    }),
    apiDuration: new Histogram({
      name: 'gateway_api_request_duration_seconds',
      help: 'Merchant API request latency, from the headers read to the answer ready, by operation.',
      labelNames: ['operation'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    apiInFlight: new Gauge({
      name: 'gateway_api_in_flight',
      help: 'Merchant API requests being worked on (API_MAX_IN_FLIGHT bounds it).',
      registers,
    }),
    apiShed: new Counter({
      name: 'gateway_api_shed_total',
      help: 'Merchant API requests refused with 503 because API_MAX_IN_FLIGHT were in flight.',
      registers,
    }),
    transfersMatched: new Counter({
      name: 'gateway_watcher_transfers_matched_total',
      help: "Transfers to gateway addresses recorded by this process's watchers (mempool and blocks).",
      labelNames: ['network', 'mode'] as const,
      registers,
    }),
    watcherPasses: new Counter({
      name: 'gateway_watcher_passes_total',
      help: "Watcher passes by result; `error` is a pass that failed on the chain node's side (RPC errors).",
      labelNames: ['network', 'mode', 'result'] as const,
      registers,
    }),
    chainHead: new Gauge({
      name: 'gateway_chain_head_height',
      help: 'The chain tip the watcher last saw.',
      labelNames: ['network', 'mode'] as const,
      registers,
    }),
    watcherCursor: new Gauge({
      name: 'gateway_watcher_cursor_height',
      help: 'The last block the watcher scanned and committed.',
      labelNames: ['network', 'mode'] as const,
      registers,
    }),
    watcherLag: new Gauge({
      name: 'gateway_watcher_lag_blocks',
      help: "Blocks between the chain tip and the watcher's cursor.",
      labelNames: ['network', 'mode'] as const,
      registers,
    }),
    watcherPassAge: new Gauge({
      name: 'gateway_watcher_last_pass_age_seconds',
      help: "Seconds since the watcher's last successful pass.",
      labelNames: ['network', 'mode'] as const,
      registers,
    }),
    chainHealthy: new Gauge({
      name: 'gateway_chain_healthy',
      help: "1 while the network's node answers the watcher, else 0.",
      labelNames: ['network', 'mode'] as const,
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'gateway_webhook_attempts_total',
      help: 'Webhook delivery attempts made by this process, by outcome (delivered, or why not).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    orders: new Gauge({
      name: 'gateway_orders',
      help: 'Orders by mode and status (all processes, from the database).',
      labelNames: ['mode', 'status'] as const,
      registers,
    }),
    payments: new Gauge({
      name: 'gateway_payments',
      help: 'Payments credited to orders, by network, mode and status (from the database).',
      labelNames: ['network', 'mode', 'status'] as const,
      registers,
    }),
    webhookQueue: new Gauge({
      name: 'gateway_webhook_queue_depth',
      help: 'Webhook events waiting for an attempt that is due (from the database).',
      registers,
    }),
    webhookEvents: new Gauge({
      name: 'gateway_webhook_events',
      help: 'Webhook events by state (from the database).',
      labelNames: ['state'] as const,
      registers,
    }),
    dbConnections: new Gauge({
      name: 'gateway_db_pool_connections',
      help: 'Database pool connections of this process by state (total, idle, waiting clients).',
      labelNames: ['state'] as const,
      registers,
    }),
    scrapeErrors: new Counter({
      name: 'gateway_metrics_scrape_errors_total',
      help: 'Scrapes whose database figures could not be read (the others are still served).',
      registers,
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createMetrics>;

export function metrics(): GatewayMetrics {
  return processSlot('metrics', createMetrics);
}
