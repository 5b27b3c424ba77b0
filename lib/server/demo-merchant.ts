import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db';
import { createMerchant, merchantCount } from '../merchants';
import { createUser } from '../users';

const DEMO_FILE = 'demo-store.json';
/** The demo merchant's first dashboard owner; it chooses its password through the printed link. */
export const DEMO_OWNER_EMAIL = 'owner@demo.localhost';

export interface DemoStoreKeys {
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

/**
 * On the first start with no merchant, a demo merchant with test keys is created so that a fresh
 * `npm start` can take a payment end to end. Its keys are printed once and kept in the data
 * directory (owner-only) for the demo store, which plays the merchant's server: the copy there
 * is the merchant's own, like a key in a shop's environment. Its dashboard owner has no password:
 * the one-time link printed beside the keys (72 hours) lets whoever started the gateway choose it.
 */
export async function ensureDemoMerchant(db: Database, dataDir: string): Promise<DemoStoreKeys | undefined> {
  if ((await merchantCount(db)) > 0) return readDemoStoreKeys(dataDir);
  const { merchant, keys } = await createMerchant(db, 'Demo store', 'test');
  const { link } = await createUser(db, { merchant: merchant.id, email: DEMO_OWNER_EMAIL, role: 'owner' });
  const demo: DemoStoreKeys = { merchantId: merchant.id, publicKey: keys.publicKey, privateKey: keys.privateKey };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, DEMO_FILE), JSON.stringify(demo, null, 2), { mode: 0o600 });
  process.stdout.write(
    [
      '',
      'Created the demo merchant "Demo store" with test keys (shown once; kept for the demo store in',
      `${path.join(dataDir, DEMO_FILE)}):`,
      `  public key:  ${keys.publicKey}`,
      `  private key: ${keys.privateKey}`,
      '',
      `Its dashboard owner is ${DEMO_OWNER_EMAIL}; choose its password within 72 hours at (shown once):`,
      `  ${link!.url}`,
      '',
    ].join('\n') + '\n',
  );
  return demo;
}

export function readDemoStoreKeys(dataDir: string): DemoStoreKeys | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, DEMO_FILE), 'utf8')) as DemoStoreKeys;
  } catch {
    return undefined;
  }
}
