import 'server-only';
import { parseConfig, type Config } from './schema';

export { envPrefix, type LiveChainConfig, type RpcEndpoint } from './chains';
export { ConfigError, type Config } from './schema';

const cache = Symbol.for('gateway.config');
type Holder = { [cache]?: Config };

/** The gateway's configuration, parsed from the environment once per process. */
export function config(): Config {
  const holder = globalThis as Holder;
  holder[cache] ??= parseConfig(process.env);
  return holder[cache];
}

/**
 * The gateway the demo store calls and whose payment pages it links to and frames:
 * STORE_GATEWAY_URL, or this gateway.
 */
export function storeGatewayUrl(cfg: Config = config()): string {
  return cfg.storeGatewayUrl ?? cfg.publicBaseUrl;
}
