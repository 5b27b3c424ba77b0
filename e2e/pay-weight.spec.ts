/**
 * The payment page's first-load budget (decision 055), in bytes, on the production build: what the
 * page's scripts add to the floor (an empty App Router page of the same build) stays within
 * PAGE_BUDGET_BYTES, gzip, TanStack Query included; the "Pay with wallet" code (EVM and Solana)
 * is not among the first-load files; and the first load is the same in every language, so one
 * more adds nothing to it. Measured as `npm run bench:page` measures it (scripts/lib/page-weight). No browser: the
 * HTML names the scripts.
 */
import path from 'node:path';
import { LANGUAGES } from '@/lib/pay/i18n';
import {
  eagerWalletChunks,
  firstLoadJs,
  floorFirstLoad,
  kib,
  lazyWalletChunks,
  PAGE_BUDGET_BYTES,
  WALLET_CODE_MARKERS,
} from '../scripts/lib/page-weight';
import { expect, makeOrder, test } from './support/fixtures';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

test('the payment page adds at most the budget to the floor, in every language; wallet code waits for the press', async ({
  baseURL,
}) => {
  const origin = baseURL!;
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.2' });
  const floor = await floorFirstLoad(origin);
  expect(floor.status).toBe(404);
  expect(floor.files.length).toBeGreaterThan(0);

  const english = await firstLoadJs(origin, `/pay/${order.orderId}`);
  expect(english.status).toBe(200);
  const added = english.gzip - floor.gzip;
  expect(
    added,
    `the payment page adds ${kib(added)} to the floor's ${kib(floor.gzip)}: over its budget of ${kib(PAGE_BUDGET_BYTES)}`,
  ).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);

  const wallet = lazyWalletChunks(ROOT);
  // Both wallet flows, EVM (EIP-1193) and Solana (Wallet Standard), are in chunks of their own.
  expect([...new Set(wallet.flatMap((chunk) => chunk.modules))].sort()).toEqual(
    Object.keys(WALLET_CODE_MARKERS).sort(),
  );
  expect(eagerWalletChunks(wallet, english), 'wallet chunks among the first-load files').toEqual([]);

  // A language's texts reach its pages in their HTML only: the scripts are the same in each.
  const byLanguage: Record<string, number> = {};
  for (const language of LANGUAGES) {
    const page = await firstLoadJs(origin, `/pay/${order.orderId}?lang=${encodeURIComponent(language)}`);
    expect(page.status, language).toBe(200);
    byLanguage[language] = page.gzip;
  }
  expect(byLanguage).toEqual(Object.fromEntries(LANGUAGES.map((language) => [language, english.gzip])));
});
