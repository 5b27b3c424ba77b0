/**
 * End-to-end tests: Playwright driving Debian's Chromium (its headless shell; the full browser for
 * the font checks) against the production build. Run them with `npm run test:e2e` (builds, installs
 * the browsers when missing) or as part of `npm test`.
 * e2e/support/global-setup.ts starts the gateway for the run; specs import `test` from
 * e2e/support/fixtures.ts.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, HEADLESS_SHELL_PATH } from './scripts/lib/chromium.mjs';

// Never download a browser: the one used is Debian's (scripts/lib/chromium.mjs).
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

const TRACE_MODES = ['off', 'on', 'retain-on-failure'] as const;

function traceMode(value: string): (typeof TRACE_MODES)[number] {
  const mode = TRACE_MODES.find((m) => m === value);
  if (!mode) throw new Error(`E2E_TRACE must be one of ${TRACE_MODES.join(', ')}, not "${value}"`);
  return mode;
}

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: '.tmp/playwright-results',
  globalSetup: './e2e/support/global-setup.ts',
  // Two cores: two browsers plus the server is as much as the machine takes (three were slower
  // on a loaded machine). Tests, not files, are shared out, so that the other worker takes the rest
  // while e2e/pay-flow.spec.ts (serial, on a gateway of its own) runs: one worker used to run every
  // other file alone. Specs share the global gateway, so each test makes its own orders, and a
  // network whose blocks a test dates ahead is used by no other spec.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Bounds for failures only, generous: on a loaded two-core machine a page or a live update can
  // take many times as long as on a quiet one.
  // The whole run's bound is a hang guard: a quiet machine runs the browser tests in about 5 min, one
  // twice as slow in about 10; a run past 30 min would push CI past its 90-minute limit.
  timeout: 120_000,
  globalTimeout: 30 * 60_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    // A trace records every action's DOM snapshots and screenshots for each test, to keep a failed
    // one's: a sixth or more of the browser tests' CPU (pay-page.spec.ts: 108 -> 87 CPU-seconds).
    // CI keeps only its printed output, so it records none; a run elsewhere keeps a failed test's
    // trace. `E2E_TRACE=retain-on-failure` (or `on`, `off`) chooses.
    trace: traceMode(process.env.E2E_TRACE ?? (process.env.CI ? 'off' : 'retain-on-failure')),
    screenshot: 'only-on-failure',
  },
  // Debian's headless shell draws a page for half the full browser's CPU; the tests of the fonts a
  // page is drawn with (tag `@full-chromium`) need the full browser's font choice (decision 123).
  projects: [
    {
      name: 'chromium',
      grepInvert: /@full-chromium/,
      use: { launchOptions: { executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS } },
    },
    {
      name: 'full-chromium',
      grep: /@full-chromium/,
      use: { launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
  ],
});
