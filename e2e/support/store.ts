/**
 * The demo store as the specs drive it: its keys (where the gateway's first start kept them), a
 * shopper's checkout of one mug up to the payment page, the store's order page, and the webhook
 * deliveries of a gateway order. Used by store.spec.ts and webhook-keys.spec.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Invoice } from '@/lib/protocol';
import { api, baseUrl, expect, type Keys } from './fixtures';

/** The demo store's keys, where the first start kept them (lib/server/demo-merchant.ts). */
export function storeKeys(): Keys {
  const file = path.join(process.env.E2E_DATA_DIR!, 'demo-store.json');
  const { publicKey, privateKey } = JSON.parse(fs.readFileSync(file, 'utf8')) as Keys;
  return { publicKey, privateKey };
}

export interface Delivery {
  id: string;
  kind: 'success' | 'error' | 'invoice';
  invoiceId?: string | null;
  invoiceStatus?: string | null;
  state: string;
  log: { statusCode: number | null; responseExcerpt: string | null }[];
}

/** The webhook events of a gateway order; an invoice's are listed under the order of its chosen coin. */
export async function deliveries(orderId: string): Promise<Delivery[]> {
  const answer = await api<Delivery[]>('webhooks/list', { orderId }, storeKeys());
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { response: Delivery[] }).response;
}

/** The store's invoice as get-invoice answers it (with the store's keys). */
export async function invoiceOf(invoiceId: string): Promise<Invoice> {
  const answer = await api<Invoice>('get-invoice', { invoiceId }, storeKeys());
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { response: Invoice }).response;
}

export const UUID = '[0-9a-f-]{36}';

/** Puts one mug in the cart and presses Pay ($12.00); answers the invoice id, on the invoice page (of `origin`). */
export async function checkoutMug(page: Page, origin = baseUrl()): Promise<string> {
  await page.goto(`${origin}/store`);
  await page.getByRole('button', { name: 'Add Ceramic mug to cart' }).click();
  await expect(page.getByText(/1 item in your cart/)).toBeVisible();
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('Total $12.00');
  // No coin is chosen in the store: one button.
  await expect(page.getByRole('radio')).toHaveCount(0);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  return new URL(await waitForPath(page, 'invoice')).pathname.split('/').pop()!;
}

/** Waits for the browser to reach `/{kind}/{uuid}` (of any origin) and answers the URL. */
export async function waitForPath(page: Page, kind: 'invoice' | 'pay'): Promise<string> {
  await page.waitForURL(new RegExp(`/${kind}/${UUID}(\\?.*)?$`));
  return page.url();
}

/**
 * On the invoice page: picks `ticker` on the network whose button starts with `network` (the
 * coin's first when absent); answers the order id, on its payment page.
 */
export async function chooseCoin(page: Page, ticker: string, network?: RegExp): Promise<string> {
  await expect(page.getByTestId('invoice-price')).toHaveText('$12.00');
  const coin = page.getByRole('region', { name: new RegExp(`^${ticker} `) });
  await (network ? coin.getByRole('button', { name: network }) : coin.getByRole('button').first()).click();
  return new URL(await waitForPath(page, 'pay')).pathname.split('/').pop()!;
}

/** Reloads the store's order page until it shows `status` (it is rendered from the store's record). */
export async function expectStoreStatus(page: Page, status: string): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('store-order-status')).toHaveAttribute('data-status', status, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}
