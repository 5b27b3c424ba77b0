import 'server-only';
import { setLogLevel } from '../log';
import { processSlot } from '../process';
import { parseConfig, type Config } from './schema';

export { envPrefix, type LiveChainConfig, type RpcEndpoint } from './chains';
export { ConfigError, type Config } from './schema';

/** The gateway's configuration, parsed from the environment once per process. */
export function config(): Config {
  return processSlot('config', () => {
    const parsed = parseConfig(process.env);
    setLogLevel(parsed.logLevel);
    return parsed;
  });
}

/**
 * The gateway the demo store calls and whose payment pages it links to and frames:
 * STORE_GATEWAY_URL, or this gateway.
 */
export function storeGatewayUrl(cfg: Config = config()): string {
  return cfg.storeGatewayUrl ?? cfg.publicBaseUrl;
}
