/**
 * The `test` and `expect` of every spec: `import { test, expect, makeOrder } from './support/fixtures'`.
 *
 * - `baseURL` is the gateway under test, so `page.goto('/pay/' + order.orderId)` works.
 * - A test fails when a page of its browser context logs `console.error` or throws an uncaught
 *   error, unless the message matches `allowedConsoleErrors` (`test.use({ allowedConsoleErrors: [/.../] })`).
 * - `gateway`: the helpers of ./gateway.ts as a fixture, for those who prefer fixtures to imports.
 */
import { test as base, expect } from '@playwright/test';
import * as gateway from './gateway';

export * from './gateway';
export { expect };

export interface E2EFixtures {
  /** Messages (`console.error: ...` or `uncaught: ...`) a test expects its pages to log. */
  allowedConsoleErrors: RegExp[];
  gateway: typeof gateway;
}

/**
 * Playwright injects its own scripts into every frame; in a frame sandboxed without `allow-scripts`
 * (the dashboard's mail preview) Chromium logs their refusal, now and then, as the page's error
 * (microsoft/playwright#33343). The preview's HTML carries no script of ours (lib/mail's tests say so).
 */
const HARNESS_NOISE = [
  /^console\.error: Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/,
];

export const test = base.extend<E2EFixtures>({
  baseURL: async ({}, use) => {
    await use(gateway.baseUrl());
  },
  allowedConsoleErrors: [[], { option: true }],
  context: async ({ context, allowedConsoleErrors }, use) => {
    const errors: string[] = [];
    context.on('console', (message) => {
      if (message.type() === 'error')
        errors.push(
          `console.error: ${message.text()} (${message.location().url || message.page()?.url() || 'unknown page'})`,
        );
    });
    context.on('weberror', (error) =>
      errors.push(`uncaught: ${error.error().message} (${error.page()?.url() ?? 'unknown page'})`),
    );
    await use(context);
    const allowed = [...HARNESS_NOISE, ...allowedConsoleErrors];
    const unexpected = errors.filter((error) => !allowed.some((pattern) => pattern.test(error)));
    expect(
      unexpected,
      'errors logged by the page (allow expected ones with test.use({ allowedConsoleErrors }))',
    ).toEqual([]);
  },
  gateway: async ({}, use) => {
    await use(gateway);
  },
});
