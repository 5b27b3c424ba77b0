/**
 * Helpers of the payment page specs (e2e/pay-*.spec.ts), beside the shared ones of e2e/support.
 *
 * - decodeQr: the text of the QR code in a screenshot of an element (jsQR over pngjs).
 * - expectAccessible: axe-core in light and in dark mode; no serious or critical violation;
 *   expectAccessibleInEnglishAndArabic: the same on the page as it is and again in Arabic.
 * - expectQrAboveFold: the QR's bottom edge within a 360 x 640 screen and its text the wallet URI.
 * - longestLanguage: the language whose texts are the longest, the hardest to fit on a phone.
 * - startOwnGateway: a second gateway under test for the specs that must decide when blocks come:
 *   SANDBOX_BLOCK_SECONDS=0 (blocks only when the spec mines them), so that "detected, 1 of 2
 *   confirmations" or an expiry on chain time happen exactly when the spec says, never between two
 *   polls by chance. Started with e2e/support/server.ts; its CLIs run against its own data dir.
 */
import { execFile } from 'node:child_process';
import { createHmac, randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { LANGUAGES, type Language } from '@/lib/pay/i18n';
import { INVOICE_MESSAGES, MESSAGES } from '@/lib/pay/messages';
import {
  expect,
  mineAt,
  type Keys,
  type MakeOrderFields,
  type Order,
  type PaymentKind,
  type SimulatedPayment,
} from './support/fixtures';
import { axeViolations } from './support/axe';
import { runCliOn, startGatewayServer, type GatewayServer } from './support/server';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** The text the QR code drawn in `locator` carries. */
export async function decodeQr(locator: Locator): Promise<string> {
  const png = PNG.sync.read(await locator.screenshot());
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code could be read from the screenshot');
  return code.data;
}

/** axe-core finds no serious or critical violation, in light and in dark mode. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const bad = (await axeViolations(page))
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad, `axe on ${what}, ${colorScheme} mode`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * axe on the page as it is (English), then on the same page in Arabic (`?lang=ar`, a new load),
 * then back to the page as it was (a new load too): every state in both directions of writing.
 */
export async function expectAccessibleInEnglishAndArabic(page: Page, what: string): Promise<void> {
  await expectAccessible(page, what);
  const before = page.url();
  const screen = await page.locator('[data-screen]').getAttribute('data-screen');
  const url = new URL(before);
  url.searchParams.set('lang', 'ar');
  await page.goto(url.toString());
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('[data-screen]')).toHaveAttribute('data-screen', screen!);
  await expectAccessible(page, `${what}, in Arabic`);
  await page.goto(before);
}

/** The languages added for where crypto is used most (docs/decisions/051), each checked on its own. */
export const ADDED_LANGUAGES = ['hi', 'vi', 'id', 'ur', 'zh-Hant', 'ko'] as const satisfies readonly Language[];

/** A phone's screen: the QR code must be on it without scrolling. */
export const PHONE = { width: 360, height: 640 };

/** The QR code is within the first 640 px of the page (a 360 x 640 phone, unscrolled) and carries `uri`. */
export async function expectQrAboveFold(page: Page, uri: string, what: string): Promise<void> {
  const qr = page.getByTestId('qr');
  const box = await qr.boundingBox();
  expect(box, `QR on ${what}`).not.toBeNull();
  expect(box!.y + box!.height, `QR bottom edge on a 360x640 screen, ${what}`).toBeLessThanOrEqual(PHONE.height);
  expect(await decodeQr(qr), `QR text, ${what}`).toBe(uri);
}

/** The language whose payment and invoice texts are the longest: the hardest to fit on a phone. */
export function longestLanguage(): Language {
  const size = (language: Language) =>
    JSON.stringify(INVOICE_MESSAGES[language]).length + JSON.stringify(MESSAGES[language]).length;
  return [...LANGUAGES].sort((a, b) => size(b) - size(a))[0]!;
}

/** No horizontal scrolling: the document is no wider than the viewport. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page width at this viewport').toBeLessThanOrEqual(clientWidth);
}

export interface OwnGateway {
  baseUrl: string;
  /** Its data directory: the users CLI (e2e/support/dashboard.ts createUser) runs against it. */
  dataDir: string;
  keys: Keys;
  /** A merchant API operation (`/api-gateway/OPERATION`) signed with `keys`; its `response`, or a throw. */
  api<T>(operation: string, fields: Record<string, unknown>): Promise<T>;
  makeOrder(fields: MakeOrderFields): Promise<Order>;
  /** What `npm run sandbox -- mine NETWORK COUNT [--at ISO]` does, on this gateway (mineAt). */
  mine(network: string, count?: number, at?: Date): Promise<void>;
  /** POST /api/sandbox/pay, as the page's "Simulate payment" does. */
  pay(orderId: string, kind?: PaymentKind): Promise<SimulatedPayment>;
  /** The public status endpoint's answer. */
  status(orderId: string): Promise<{ status: string; screen: string; [field: string]: unknown }>;
  /** Polls the status endpoint until `screen`. */
  waitForScreen(orderId: string, screen: string, timeoutMs?: number): Promise<void>;
  /** Runs a CLI (`npm run <script> -- ...`) against this gateway's data directory. */
  cli(script: 'keys' | 'sandbox' | 'collect', args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A gateway of the spec's own, mining only on demand. `env` adds settings (RISK_DENY_LIST,
 * FRAME_ANCESTORS, a live network's <NETWORK>_RPC_URL...): e2e/support/server.ts hands the
 * runner's environment to the server. `keyMode` is the mode of the key makeOrder signs with: a
 * live key for a spec that pays on a live network's node (e2e/pay-wallet.spec.ts).
 *
 * `env` may be a function of the id of the merchant whose key makeOrder signs with, for settings
 * that name a merchant (a tag network's <NETWORK>_UNTAGGED_MERCHANT, which must exist when the
 * gateway fills its address pool): the gateway then starts once without them to create that
 * merchant, and again with them on the same data.
 */
export async function startOwnGateway(
  name: string,
  env: Record<string, string> | ((merchantId: string) => Record<string, string>) = {},
  keyMode: 'test' | 'live' = 'test',
): Promise<OwnGateway> {
  const logFile = path.join(ROOT, '.tmp', `e2e-${name}.log`);
  const start = (settings: Record<string, string>, dataDir?: string) =>
    withEnv({ E2E_SANDBOX_BLOCK_SECONDS: '0', ...settings }, () => startGatewayServer(logFile, {}, dataDir));
  if (typeof env === 'function') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-e2e-'));
    try {
      const first = await start({}, dataDir);
      const keys = await createKeys(first, name, keyMode).finally(() => first.stop());
      const settings = env(keys.merchantId);
      const server = await start(settings, dataDir);
      const stop = server.stop;
      server.stop = () => stop().finally(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      return ownGateway(server, keys, settings);
    } catch (error) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }
  const server = await start(env);
  let keys: Keys;
  try {
    keys = await createKeys(server, name, keyMode);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return ownGateway(server, keys, env);
}

/** Runs `start` with `settings` in this process's environment (which the server inherits), then restores it. */
async function withEnv<T>(settings: Record<string, string>, start: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(settings).map((k) => [k, process.env[k]]));
  Object.assign(process.env, settings);
  try {
    return await start();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * Runs a CLI (`npm run <script> -- ...`) against the data directory of `server`, with the settings
 * the server was started with: a command about a live network (a merchant's deposit key) needs it
 * configured as the server has it.
 */
function cliOf(server: GatewayServer, settings: Record<string, string> = {}) {
  return (script: 'keys' | 'sandbox' | 'collect', args: string[]) =>
    runCliOn(server.dataDir, script, args, '', settings);
}

/** A new merchant with a key of `keyMode`, on `server` (`npm run keys -- create`). */
async function createKeys(
  server: GatewayServer,
  name: string,
  keyMode: 'test' | 'live',
): Promise<Keys & { merchantId: string }> {
  const created = JSON.parse(
    (await cliOf(server)('keys', ['create', '--name', `e2e-${name}`, '--mode', keyMode, '--json']))
      .trim()
      .split('\n')
      .pop()!,
  ) as Keys & { merchantId: string };
  return { publicKey: created.publicKey, privateKey: created.privateKey, merchantId: created.merchantId };
}

function ownGateway(server: GatewayServer, keys: Keys, settings: Record<string, string>): OwnGateway {
  const cli = cliOf(server, settings);
  const baseUrl = server.baseUrl;
  const gateway: OwnGateway = {
    baseUrl,
    dataDir: server.dataDir,
    keys,
    cli,
    async api<T>(operation: string, fields: Record<string, unknown>) {
      const body = JSON.stringify({ ...fields, nonce: `${Date.now()}${randomInt(1e9)}` });
      const response = await fetch(`${baseUrl}/api-gateway/${operation}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-public-key': keys.publicKey,
          'x-api-signature': createHmac('sha256', keys.privateKey).update(body).digest('hex'),
        },
        body,
      });
      const answer = (await response.json()) as { success: boolean; response: T };
      if (!answer.success) throw new Error(`${operation}: ${JSON.stringify(answer)}`);
      return answer.response;
    },
    makeOrder(fields) {
      return gateway.api<Order>('make-order', { order: `e2e-${Date.now()}-${randomInt(1e9)}`, ...fields });
    },
    async mine(network, count = 1, at) {
      await mineAt(network, at, count, server.dataDir);
    },
    async pay(orderId, kind = 'full') {
      const response = await fetch(`${baseUrl}/api/sandbox/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, kind }),
      });
      const body = (await response.json()) as SimulatedPayment & { error?: string };
      if (!response.ok) throw new Error(`sandbox pay: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
    async status(orderId) {
      const read = async () => {
        const response = await fetch(`${baseUrl}/api/pay/${orderId}/status`);
        if (!response.ok) throw new Error(`status: ${response.status}`);
        return (await response.json()) as { status: string; screen: string };
      };
      // A GET, asked again once when it met a connection the server was closing as idle (ECONNRESET):
      // the server's keep-alive timing is not what a test of the page asks about.
      return read().catch((error: unknown) => {
        const reset = (e: unknown) => (e as { code?: string } | undefined)?.code === 'ECONNRESET';
        if (!reset(error) && !reset((error as { cause?: unknown }).cause)) throw error;
        return read();
      });
    },
    async waitForScreen(orderId, screen, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const view = await gateway.status(orderId);
        if (view.screen === screen) return;
        if (Date.now() > deadline)
          throw new Error(`order ${orderId} shows ${view.screen}, not ${screen}, after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    stop: () => server.stop(),
  };
  return gateway;
}

/** The sandbox's sender on `network` (lib/chains/sandbox faucetAddress), for a RISK_DENY_LIST. */
export function sandboxFaucet(network: string): Promise<string> {
  const script = `import('./lib/catalog/index.ts').then(async (c) => { const l = await import('./lib/chains/sandbox/ledger.ts'); console.log(l.faucetAddress(c.findNetwork(${JSON.stringify(network)}))); })`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`faucet address: ${stderr || error.message}`));
        else resolve(stdout.trim());
      },
    );
  });
}

/** The left edge of each character of `text` as laid out inside `element` (across its text nodes). */
export function characterPositions(element: Locator, text: string): Promise<number[]> {
  return element.evaluate((root, text) => {
    const characters: [Text, number][] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      for (let i = 0; i < node.textContent!.length; i++) characters.push([node as Text, i]);
    const start = characters
      .map(([node, i]) => node.textContent![i])
      .join('')
      .indexOf(text);
    return [...text].map((_, k) => {
      const [node, i] = characters[start + k]!;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      return range.getBoundingClientRect().x;
    });
  }, text);
}
