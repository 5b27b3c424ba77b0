import { baseUrl, expect, makeOrder, test } from './support/fixtures';

test('the home page of the production server names the gateway and its API', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('Crypto payment gateway');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Crypto payment gateway');
  await expect(page.getByRole('main')).toContainText('/api-gateway/*');
});

test('make-order over signed HTTP answers a payment link on the server under test', async () => {
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.25' });
  expect(order.status).toBe('pending');
  expect(order.amount).toBe('0.25');
  expect(order.orderId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(order.link).toBe(`${baseUrl()}/pay/${order.orderId}`);
  expect(new URL(order.link).origin).toBe(new URL(baseUrl()).origin);
});
