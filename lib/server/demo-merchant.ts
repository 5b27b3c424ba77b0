import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db';
import { createMerchant, merchantCount } from '../merchants';
import { createUser } from '../users';

const DEMO_FILE = 'demo-store.json';
/** What the first start would show once: the demo keys and the owner's set-up link, for the operator. */
export const FIRST_START_FILE = 'first-start.txt';
/** The demo merchant's first dashboard owner; it chooses its password through its one-time link. */
export const DEMO_OWNER_EMAIL = 'owner@demo.localhost';

export interface DemoStoreKeys {
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

/** Where the first start tells the operator about the demo merchant: a terminal, or a log. */
export interface Announcement {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * On the first start with no merchant, a demo merchant with test keys is created so that a fresh
 * `npm start` can take a payment end to end. Its keys are kept in the data directory (owner-only)
 * for the demo store, which plays the merchant's server: the copy there is the merchant's own,
 * like a key in a shop's environment. Its dashboard owner has no password: a one-time link (72
 * hours) lets whoever started the gateway choose it, and so makes them the owner.
 *
 * Keys and link are written to an owner-only file of the data directory, and shown on the
 * terminal only when the output is one: a server's output is usually a log (systemd, docker,
 * a file), and whoever reads logs would become the owner (issue 34). A log is told where to look.
 */
export async function ensureDemoMerchant(
  db: Database,
  dataDir: string,
  out: Announcement = process.stdout,
): Promise<DemoStoreKeys | undefined> {
  if ((await merchantCount(db)) > 0) return readDemoStoreKeys(dataDir);
  const { merchant, keys } = await createMerchant(db, 'Demo store', 'test');
  const { link } = await createUser(db, { merchant: merchant.id, email: DEMO_OWNER_EMAIL, role: 'owner' });
  const demo: DemoStoreKeys = { merchantId: merchant.id, publicKey: keys.publicKey, privateKey: keys.privateKey };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, DEMO_FILE), JSON.stringify(demo, null, 2), { mode: 0o600 });
  const secrets = [
    'Created the demo merchant "Demo store" with test keys (kept for the demo store in',
    `${path.join(dataDir, DEMO_FILE)}):`,
    `  public key:  ${keys.publicKey}`,
    `  private key: ${keys.privateKey}`,
    '',
    `Its dashboard owner is ${DEMO_OWNER_EMAIL}; choose its password within 72 hours at (usable once):`,
    `  ${link!.url}`,
  ].join('\n');
  const file = path.join(dataDir, FIRST_START_FILE);
  fs.writeFileSync(file, `${secrets}\n`, { mode: 0o600 });
  out.write(
    out.isTTY
      ? `\n${secrets}\n(Also kept in ${file}, readable by this user only.)\n\n`
      : [
          '',
          `Created the demo merchant "Demo store" with test keys and its dashboard owner ${DEMO_OWNER_EMAIL}.`,
          "The keys and the owner's one-time set-up link are not written to this log: they are in",
          `  ${file}`,
          'readable by this user only.',
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
