import 'server-only';
import { fillAddressPools } from '../addresses';
import { installApiFront, pruneNonces } from '../api';
import { childKeyBackend, enabledNetworks } from '../chains';
import { config } from '../config';
import { getDatabase, keepStatisticsFresh } from '../db';
import { pruneEvents } from '../events';
import { log } from '../log';
import { startWorkers } from '../watcher';
import { appSecret, flushKeyUse, followKeyChanges, KEY_USE_FLUSH_MS } from '../merchants';
import { pruneDevices, pruneThrottle } from '../users';
import { createControlToken, setActiveControlToken } from './control';
import { ensureDemoMerchant } from './demo-merchant';
import { MODE_VALUES } from '../protocol';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Everything the server does once before it answers requests: open and migrate the database,
 * fill the address pools, create the demo merchant on a fresh install, schedule housekeeping
 * (planner statistics, pruning nonces, events and sign-in records, writing the keys' last use).
 */
export async function startGateway(): Promise<void> {
  const cfg = config();
  appSecret(); // Fail now, not on the first request, when APP_SECRET is missing.
  const controlUrl = cfg.databaseUrl ? undefined : `${cfg.localBaseUrl}/internal/cli`;
  if (controlUrl) setActiveControlToken(createControlToken(cfg.dataDir));
  const db = await getDatabase({ controlUrl });
  await followKeyChanges(db);
  for (const mode of MODE_VALUES) await fillAddressPools(db, enabledNetworks(mode), mode);
  keepStatisticsFresh(db);
  if (cfg.demoStore) await ensureDemoMerchant(db, cfg.dataDir);
  if (cfg.runWorkers) startWorkers(db);
  const prune = () => {
    pruneNonces(db, cfg.nonceWindowDays).catch((error) => log.error('nonce pruning failed', { error }));
    pruneEvents(db, cfg.eventRetentionDays).catch((error) => log.error('event pruning failed', { error }));
    // Sign-in limits and known devices that have nothing left to say (lib/users).
    Promise.all([pruneThrottle(db), pruneDevices(db)]).catch((error) =>
      log.error('sign-in records pruning failed', { error }),
    );
  };
  setInterval(prune, HOUR_MS).unref();
  const writeKeyUse = () => flushKeyUse(db).catch((error) => log.error('key usage not written', { error }));
  setInterval(writeKeyUse, KEY_USE_FLUSH_MS).unref();
  installApiFront({ publicBaseUrl: cfg.publicBaseUrl });
  log.info('gateway started', {
    database: db.kind,
    dataDir: cfg.databaseUrl ? undefined : cfg.dataDir,
    publicBaseUrl: cfg.publicBaseUrl,
    // '@scure/bip32' means no libsecp256k1 binary for this platform: ~1 ms of CPU per address.
    childKeys: childKeyBackend,
  });
}

/** A configuration or database problem stops the server with a readable message, not a stack. */
export async function startGatewayOrExit(): Promise<void> {
  try {
    await startGateway();
  } catch (error) {
    process.stderr.write(`The gateway cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
