import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import architecture, { root } from './architecture.mjs';

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
});
const at = (file: string) => path.join(root, file);
const error = (message: string) => ({ message });

// Real files of the tree: the rule resolves each import to the file it names.
tester.run('architecture/imports', architecture.rules.imports, {
  valid: [
    { filename: at('lib/orders/make.ts'), code: "import { x } from '../merchants';" },
    { filename: at('lib/orders/make.ts'), code: "import { x } from './lifecycle';" },
    { filename: at('lib/orders/make.ts'), code: "import type { x } from '../protocol';" },
    { filename: at('lib/api/route.ts'), code: "import { x } from '../orders';" },
    { filename: at('app/pay/[orderId]/page.tsx'), code: "import { x } from '@/lib/pay';" },
    { filename: at('components/pay/pay-live.tsx'), code: "import { x } from '@/lib/pay/view';" },
    { filename: at('components/pay/pay-live.tsx'), code: "import { x } from '@tanstack/react-query';" },
    { filename: at('tests/api.test.ts'), code: "import { x } from '@/lib/db/lock';" },
    { filename: at('lib/db/lock.pglite.test.ts'), code: "import { x } from '../orders/make';" },
    { filename: at('scripts/keys.ts'), code: "import { x } from '../lib/merchants';" },
    { filename: at('lib/chains/utxo/transactions/psbt.ts'), code: "import { x } from './networks';" },
    { filename: at('lib/chains/utxo/transactions/psbt.ts'), code: "import { x } from '@scure/btc-signer';" },
    { filename: at('scripts/signer.ts'), code: "import { x } from '../lib/chains/utxo/transactions';" },
    // One client-safe folder may use another: the EVM signer's refusal is the Bitcoin family's.
    { filename: at('lib/chains/evm/transactions/signing.ts'), code: "import { x } from '../../utxo/transactions';" },
  ],
  invalid: [
    {
      filename: at('lib/chains/utxo/transactions/psbt.ts'),
      code: "import { x } from '../../../db';",
      errors: [
        error(
          'lib/chains/utxo/transactions is client-safe transaction code: it imports only client-safe transaction folders and packages, not lib/db/index.ts',
        ),
      ],
    },
    {
      filename: at('lib/chains/utxo/transactions/psbt.ts'),
      code: "import { x } from '../../sandbox/test-seed';",
      errors: [
        error(
          'lib/chains/utxo/transactions is client-safe transaction code: it imports only client-safe transaction folders and packages, not lib/chains/sandbox/test-seed.ts',
        ),
      ],
    },
    {
      filename: at('lib/chains/evm/transactions/plan.ts'),
      code: "import type { x } from '../../../protocol';",
      errors: [
        error(
          'lib/chains/evm/transactions is client-safe transaction code: it imports only client-safe transaction folders and packages, not lib/protocol/index.ts',
        ),
      ],
    },
    {
      filename: at('lib/chains/utxo/transactions/psbt.ts'),
      code: "import 'server-only';",
      errors: [error("lib/chains/utxo/transactions is client-safe transaction code: it does not import 'server-only'")],
    },
    {
      filename: at('lib/orders/make.ts'),
      code: "import { ApiError } from '../api';",
      errors: [
        error(
          'lib/orders (domain) does not import lib/api (edge) (domain modules throw domain errors; only lib/api turns them into HTTP answers)',
        ),
      ],
    },
    {
      filename: at('lib/orders/make.ts'),
      code: "import { findApiKey } from '../merchants/keys';",
      errors: [
        error("another folder is entered through its index.ts: import 'lib/merchants' (not lib/merchants/keys.ts)"),
      ],
    },
    {
      filename: at('app/store/page.tsx'),
      code: "import { x } from '@/lib/store/catalog';",
      errors: [error("another folder is entered through its index.ts: import 'lib/store' (not lib/store/catalog.ts)")],
    },
    {
      filename: at('lib/db/client.ts'),
      code: "import { x } from '../orders';",
      errors: [error('lib/db (infra) does not import lib/orders (domain)')],
    },
    {
      filename: at('lib/money/index.ts'),
      code: "import { x } from '../config';",
      errors: [error('lib/money (shared) does not import lib/config (infra)')],
    },
    {
      filename: at('lib/watcher/index.ts'),
      code: "import { x } from '../server';",
      errors: [error('lib/watcher (domain) does not import lib/server (assembly)')],
    },
    {
      filename: at('lib/orders/make.ts'),
      code: "import { x } from '@/components/pay/pay-live';",
      errors: [
        error('lib/ does not import components/ (the arrows point from app/, components/ and scripts/ to lib/)'),
      ],
    },
    {
      filename: at('components/pay/pay-live.tsx'),
      code: "import { getDatabase } from '@/lib/db';",
      errors: [error('client code imports only client-safe modules; lib/db/index.ts is server-only')],
    },
    {
      filename: at('app/pay/[orderId]/live.tsx'),
      code: "'use client';\nimport { loadPublicView } from '@/lib/pay';",
      errors: [error('client code imports only client-safe modules; lib/pay/index.ts is server-only')],
    },
    {
      filename: at('app/store/page.tsx'),
      code: "import { x } from '@/scripts/cli-runtime';",
      errors: [error('app/ does not import scripts/ (routes and pages use lib/ and components/)')],
    },
    {
      filename: at('scripts/keys.ts'),
      code: "import { x } from '../app/store/cart';",
      errors: [error('scripts/ does not import app/ (CLIs and processes use lib/)')],
    },
    {
      filename: at('lib/orders/make.ts'),
      code: "export * from '../merchants/keys';",
      errors: [
        error("another folder is entered through its index.ts: import 'lib/merchants' (not lib/merchants/keys.ts)"),
      ],
    },
    {
      filename: at('lib/orders/make.ts'),
      code: "const m = await import('../api');",
      errors: [
        error(
          'lib/orders (domain) does not import lib/api (edge) (domain modules throw domain errors; only lib/api turns them into HTTP answers)',
        ),
      ],
    },
  ],
});

tester.run('architecture/test-databases', architecture.rules['test-databases'], {
  valid: [
    { filename: at('tests/watcher.both.test.ts'), code: "import { openTestDatabase } from './support/database';" },
    { filename: at('tests/anything.pg.test.ts'), code: "import { startTestGateway } from './support/gateway';" },
    { filename: at('tests/anything.pglite.test.ts'), code: "import { startTestGateway } from './support/gateway';" },
    {
      filename: at('tests/http-server.test.ts'),
      code: "import { createGatewayServer } from '../scripts/lib/http-server.mjs';",
    },
    { filename: at('tests/anything.test.ts'), code: "import type { Database } from '@/lib/db/client';" },
    { filename: at('lib/orders/lifecycle.test.ts'), code: "import { decide } from './lifecycle';" },
  ],
  invalid: [
    {
      filename: at('tests/anything.test.ts'),
      code: "import { openTestDatabase } from './support/database';",
      errors: [
        error(
          'this file opens a database (tests/support/database.ts reaches tests/support/database.ts): name it anything.pglite.test.ts, anything.pg.test.ts or anything.both.test.ts, for the databases it runs on (vitest.config.ts)',
        ),
      ],
    },
    {
      filename: at('tests/anything.test.ts'),
      code: "import { startTestGateway } from './support/gateway';",
      errors: [
        error(
          'this file opens a database (tests/support/gateway.ts reaches tests/support/database.ts): name it anything.pglite.test.ts, anything.pg.test.ts or anything.both.test.ts, for the databases it runs on (vitest.config.ts)',
        ),
      ],
    },
  ],
});
