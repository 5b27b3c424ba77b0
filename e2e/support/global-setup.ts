/**
 * Once per Playwright run: start the gateway under test (server.ts), create the test merchant
 * "e2e" through the keys CLI, and hand both to the workers through the environment (Playwright
 * starts its workers with the runner's environment as global set-up left it). The function it
 * answers is the global teardown: it stops the server and removes its data directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { missingChromium } from '../../scripts/lib/chromium.mjs';
import { root } from '../../scripts/lib/build.mjs';
import { missingFontPackages } from '../../scripts/lib/fonts.mjs';
import { startPostgres } from '../../scripts/lib/postgres.mjs';
import { createKeys } from './gateway';
import { logTail, startGatewayServer } from './server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const browsers = missingChromium();
  if (browsers.length > 0)
    throw new Error(
      `${browsers.join(', ')} missing: run \`npm run test:e2e\`, which installs Debian's chromium packages.`,
    );
  const fonts = missingFontPackages();
  if (fonts.length > 0)
    throw new Error(
      `${fonts.join(', ')} missing: run \`npm run test:e2e\`, which installs these Debian font packages.`,
    );
  const started = Date.now();
  // The gateways' PostgreSQL cluster (server.ts): one for the run, a database per gateway.
  const postgres = process.env.E2E_DATABASE === 'embedded' ? undefined : await startPostgres();
  if (postgres) process.env.E2E_POSTGRES_URL = postgres.url;
  const server = await startGatewayServer(path.join(root, '.tmp', 'e2e-server.log')).catch((error: unknown) => {
    postgres?.stop();
    throw error;
  });
  try {
    process.env.E2E_BASE_URL = server.baseUrl;
    process.env.E2E_DATA_DIR = server.dataDir;
    const keys = await createKeys('e2e', 'test');
    process.env.E2E_PUBLIC_KEY = keys.publicKey;
    process.env.E2E_PRIVATE_KEY = keys.privateKey;
    process.env.E2E_MERCHANT_ID = keys.merchantId;
  } catch (error) {
    await server.stop();
    postgres?.stop();
    throw new Error(`${(error as Error).message}\nServer log (${server.logFile}):\n${logTail(server.logFile)}`, {
      cause: error,
    });
  }
  console.log(
    `e2e: gateway at ${server.baseUrl} (data ${server.dataDir}, ${postgres ? 'PostgreSQL' : 'embedded database'}, log ${path.relative(root, server.logFile)}), ready in ${Date.now() - started} ms`,
  );
  return async () => {
    await server.stop();
    postgres?.stop();
    const errors = fs
      .readFileSync(server.logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"level":"error"'));
    if (errors.length > 0)
      console.log(
        `e2e: the gateway logged ${errors.length} error(s), see ${path.relative(root, server.logFile)}:\n${errors.slice(-5).join('\n')}`,
      );
  };
}
