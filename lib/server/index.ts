import 'server-only';
/**
 * lib/server: what assembles a running gateway: start-up (./startup, called by instrumentation.ts),
 * the control token of the local CLI route (./control) and the demo merchant (./demo-merchant).
 */
export { startGateway, startGatewayOrExit } from './startup';
export { controlTokenMatches, readControlToken } from './control';
export { readDemoStoreKeys, type DemoStoreKeys } from './demo-merchant';
