import 'server-only';
import type { Config } from '../config';
import type { RateSource } from './source';
import { coinbaseSource } from './sources/coinbase';
import { coingeckoSource } from './sources/coingecko';
import { fixedSource } from './sources/fixed';
import { krakenSource } from './sources/kraken';
import type { Mode } from '../protocol';

export type RateMode = Mode;

type RateSettings = Pick<
  Config,
  | 'rateSourcesLive'
  | 'rateSourcesTest'
  | 'rateFixed'
  | 'rateKrakenUrl'
  | 'rateCoinbaseUrl'
  | 'rateCoingeckoUrl'
  | 'rateCoingeckoApiKey'
>;

/** Each source name lib/config accepts (RATE_SOURCE_NAMES), and how it is built from the settings. */
export const SOURCE_BUILDERS: Record<Config['rateSourcesLive'][number], (cfg: RateSettings) => RateSource> = {
  fixed: (cfg) => fixedSource(cfg.rateFixed),
  kraken: (cfg) => krakenSource({ baseUrl: cfg.rateKrakenUrl }),
  coinbase: (cfg) => coinbaseSource({ baseUrl: cfg.rateCoinbaseUrl }),
  coingecko: (cfg) => coingeckoSource({ baseUrl: cfg.rateCoingeckoUrl, apiKey: cfg.rateCoingeckoApiKey }),
};

/** The sources of a mode, in the configured order. */
export function sourcesFor(mode: RateMode, cfg: RateSettings): RateSource[] {
  return (mode === 'live' ? cfg.rateSourcesLive : cfg.rateSourcesTest).map((name) => SOURCE_BUILDERS[name](cfg));
}
