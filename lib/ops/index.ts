import 'server-only';
export { chainStatus, type ChainStatus, type NetworkStatus } from './chains';
export { readiness, type NetworkReadiness, type Readiness } from './readiness';
export { METRICS_CONTENT_TYPE, metricsText } from './scrape';
export { serveOps } from './http';
