// The arrows of ARCHITECTURE.md as an ESLint rule (`architecture/imports`, decision 022): which part
// of the tree may import which, that another folder of lib/ is entered only through its index.ts,
// and that client code (components/, 'use client' files) imports nothing server-only.
//
// A rule of our own rather than a boundaries plugin: the whole policy is the table below, imports
// are resolved by path arithmetic ('./', '../' and the '@/' alias, nothing else is ours), and each
// message names the arrow it breaks.
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * Layers of lib/, lowest first; a folder imports its own layer and the ones below it. `shared` is
 * what every part of the tree may use (the wire contract, money, logging, the shape of a domain
 * error, the process-wide slots of lib/process); `infra` is configuration, storage and chains; `domain` the rules; `edge` the merchant
 * API's HTTP edge (only it turns domain errors into HTTP answers); `assembly` what assembles a
 * running gateway (server start-up and control) and the demo store beside it.
 */
export const LIB_LAYERS = {
  shared: ['protocol', 'money', 'log', 'errors', 'process', 'metrics'],
  infra: ['config', 'db', 'chains', 'catalog', 'security'],
  domain: [
    'addresses',
    'admin',
    'client',
    'dashboard',
    'deposits',
    'events',
    'invoices',
    'links',
    'mail',
    'merchants',
    'mispayments',
    'operations',
    'ops',
    'orders',
    'pay',
    'payouts',
    'rates',
    'receipts',
    'refunds',
    'risk',
    'sandbox',
    'subscriptions',
    'users',
    'watcher',
    'webhooks',
  ],
  edge: ['api'],
  assembly: ['server', 'store'],
};
const LAYER_ORDER = Object.keys(LIB_LAYERS);

/**
 * Files of a folder that are a public face beside its index.ts, and why. lib/pay's index is
 * server-only (it reads the database); the payment page's client components need its pure parts.
 */
export const EXTRA_ENTRY_POINTS = {
  'lib/pay/format.ts': 'pure formatting shared with the browser',
  'lib/pay/messages.ts': 'the payment page texts, shared with the browser',
  'lib/pay/i18n.ts': 'language choice, shared with the browser',
  'lib/pay/view.ts': 'the public view type and screen rule, shared with the browser',
  'lib/pay/wallet-messages.ts': 'the "Pay with wallet" texts, shared with the browser',
  'lib/pay/link-messages.ts': "a payment link page's texts, shared with the browser",
  'lib/pay/rest-messages.ts': 'the "pay the rest" texts, shared with the browser',
  'lib/pay/payer-refund-messages.ts': "the payer's refund choice texts, shared with the browser",
  'lib/pay/wallet-request.ts': 'the wallet transaction of an EIP-681 URI, shared with the browser',
  'lib/pay/wallet-discovery.ts':
    'the wallets that announce themselves (EIP-6963, the Wallet Standard), for the browser',
  'lib/pay/wallet-send.ts': 'the EIP-1193 wallet flow, imported by the browser only when the button is pressed',
  'lib/pay/wallet-solana-send.ts':
    'the Wallet Standard (Solana) wallet flow, imported by the browser only when the button is pressed',
  'lib/refunds/wallet-transfer.ts': "a Tron refund's transfer for TronLink, the type the order page's button is handed",
  'lib/invoices/view.ts': 'the invoice page view types, shared with the browser',
  'lib/catalog/icons.ts':
    "the coins' and networks' SVG icons, kept out of the catalog's index that the browser imports",
  'lib/receipts/document.ts': 'the receipt as a document, pure: the receipt page draws it as the PDF does',
  'lib/receipts/receipt-messages.ts': 'the receipt texts, handed to the receipt page like the payment page texts',
  'lib/mail/subscription-messages.ts': "the subscriber's texts, shared with the subscriber page's component",
  'lib/chains/utxo/transactions/index.ts':
    "the Bitcoin family's transaction code, client-safe: the signer (scripts/signer) imports it without lib/chains' server side",
  'lib/chains/evm/transactions/index.ts':
    "the EVM networks' transaction code (the sweeper, collection plans), client-safe: the signer imports it too",
  'lib/chains/tron/transactions/index.ts':
    "Tron's transaction code, client-safe: the signer (scripts/signer) imports it without lib/chains' server side",
  'lib/chains/solana/transactions/index.ts':
    "Solana's transfer builder, wallet keys and payment sender rule, client-safe: the signer (scripts/signer) imports it without lib/chains' server side",
  'lib/chains/xrpl/transactions/index.ts':
    "the XRP Ledger refund's Payment, client-safe: the signer (scripts/signer) imports it without lib/chains' server side",
};

/**
 * Folders of transaction code that the signer (scripts/signer, on the merchant's machine) is built
 * from (docs/decisions/052): they import only each other and packages, never the database, the
 * configuration, the sandbox or anything server-only, so that the one program that touches a key
 * carries nothing that opens the gateway's storage. Tests beside them may import what they test.
 */
export const CLIENT_SAFE_FOLDERS = [
  'lib/chains/utxo/transactions',
  'lib/chains/evm/transactions',
  'lib/chains/tron/transactions',
  'lib/chains/solana/transactions',
  'lib/chains/xrpl/transactions',
];
/** Packages a client-safe folder does not import: storage, the server marker, Node's own modules. */
const CLIENT_SAFE_REFUSED_PACKAGES = /^(server-only$|pg$|@electric-sql\/|drizzle-orm|node:)/;

const inClientSafeFolder = (relative) =>
  CLIENT_SAFE_FOLDERS.some((folder) => relative.startsWith(`${folder}/`)) && !/\.test\.tsx?$/.test(relative);

/** Parts of the tree outside lib/ and what they may import (besides `shared`, always allowed). */
const TOP_LEVEL = {
  app: { imports: ['lib', 'components'], why: 'routes and pages use lib/ and components/' },
  components: { imports: ['lib', 'components'], why: 'UI uses client-safe lib/ modules and other components' },
  scripts: { imports: ['lib', 'scripts'], why: 'CLIs and processes use lib/' },
};

/** Tests and benchmarks (these folders, *.test.ts beside the code, scripts/bench) may reach any module they exercise. */
const TEST_PARTS = ['tests', 'e2e', 'bench'];

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mjs', '.js'];

/** Where a part of the tree stands: top-level part, and for lib/ its folder and layer. */
export function classify(file) {
  const relative = path.relative(root, file).split(path.sep).join('/');
  const [top, folder] = relative.split('/');
  if (top === 'lib' && folder) {
    const layer = LAYER_ORDER.find((name) => LIB_LAYERS[name].includes(folder));
    return { relative, top, folder, layer };
  }
  return {
    relative,
    top: TOP_LEVEL[top] ? top : relative.includes('/') ? top : '.',
    folder: undefined,
    layer: undefined,
  };
}

/** The repository file an import names, or undefined for a package or a file outside the tree. */
export function resolveImport(fromFile, source) {
  let base;
  if (source.startsWith('./') || source.startsWith('../')) base = path.resolve(path.dirname(fromFile), source);
  else if (source.startsWith('@/')) base = path.join(root, source.slice(2));
  else return undefined;
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((ext) => base + ext),
    ...SOURCE_EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ];
  // A '.js' specifier may name a '.ts' file (TypeScript's NodeNext convention).
  if (/\.m?js$/.test(base)) candidates.push(base.replace(/\.(m?)js$/, '.$1ts'));
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile()) ?? base;
}

const serverOnlyCache = new Map();
function isServerOnly(file) {
  if (!serverOnlyCache.has(file)) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    serverOnlyCache.set(file, /^import ['"]server-only['"];?$/m.test(text));
  }
  return serverOnlyCache.get(file);
}

/** Why `from` may not import `to` (both classified), or undefined when it may. */
export function violation(from, to, { clientFile }) {
  if (inClientSafeFolder(from.relative) && !CLIENT_SAFE_FOLDERS.some((folder) => to.relative.startsWith(`${folder}/`)))
    return `${path.posix.dirname(from.relative)} is client-safe transaction code: it imports only client-safe transaction folders and packages, not ${to.relative}`;
  if (
    TEST_PARTS.includes(from.top) ||
    /\.test\.tsx?$/.test(from.relative) ||
    from.relative.startsWith('scripts/bench/')
  )
    return undefined;
  if (to.top === 'lib' && to.folder && from.folder !== to.folder) {
    const entry = /^lib\/[^/]+\/index\.(ts|tsx|mjs|js)$/.test(to.relative) || EXTRA_ENTRY_POINTS[to.relative];
    if (!entry)
      return `another folder is entered through its index.ts: import '${path.posix.dirname(to.relative)}' (not ${to.relative})`;
  }
  if (clientFile && to.top === 'lib' && isServerOnly(path.join(root, to.relative))) {
    return `client code imports only client-safe modules; ${to.relative} is server-only`;
  }
  if (from.top === 'lib' && from.folder) {
    if (to.top !== 'lib')
      return `lib/ does not import ${to.top}/ (the arrows point from app/, components/ and scripts/ to lib/)`;
    if (!to.folder || !from.layer || !to.layer) return undefined;
    if (LAYER_ORDER.indexOf(to.layer) > LAYER_ORDER.indexOf(from.layer)) {
      const note =
        to.layer === 'edge' ? ' (domain modules throw domain errors; only lib/api turns them into HTTP answers)' : '';
      return `lib/${from.folder} (${from.layer}) does not import lib/${to.folder} (${to.layer})${note}`;
    }
    return undefined;
  }
  const part = TOP_LEVEL[from.top];
  if (part && to.top !== from.top && !part.imports.includes(to.top))
    return `${from.top}/ does not import ${to.top}/ (${part.why})`;
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: "Imports follow ARCHITECTURE.md's arrows; another lib/ folder only through its index.ts" },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = classify(file);
    const clientFile = from.top === 'components' || /^\s*['"]use client['"]/.test(context.sourceCode.text);
    const clientSafe = inClientSafeFolder(from.relative);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      if (clientSafe && CLIENT_SAFE_REFUSED_PACKAGES.test(source)) {
        context.report({
          node: node.source,
          message: `${path.posix.dirname(from.relative)} is client-safe transaction code: it does not import '${source}'`,
        });
        return;
      }
      const target = resolveImport(file, source);
      if (!target || path.relative(root, target).startsWith('..')) return;
      const problem = violation(from, classify(target), { clientFile });
      if (problem) context.report({ node: node.source, message: problem });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** The module through which a test opens a database (a PGlite copy, or a database on the run's PostgreSQL). */
export const TEST_DATABASE_MODULE = 'tests/support/database.ts';
/** `name.pglite.test.ts`, `name.pg.test.ts`, `name.both.test.ts`: the databases a file runs on (vitest.config.ts). */
export const DATABASE_TEST_NAME = /\.(pglite|pg|both)\.test\.tsx?$/;

const reachCache = new Map();
/** Whether `file` is the test database module or imports it, directly or through the modules it imports. */
export function opensTestDatabase(file, seen = new Set()) {
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (relative === TEST_DATABASE_MODULE) return true;
  if (reachCache.has(file)) return reachCache.get(file);
  if (seen.has(file) || !relative.startsWith('tests/') || !fs.existsSync(file)) return false;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  // Value imports only: a type cannot open a database.
  const sources = [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(
    (m) => m[1],
  );
  const reaches = sources.some((source) => {
    const target = resolveImport(file, source);
    return target !== undefined && opensTestDatabase(target, seen);
  });
  reachCache.set(file, reaches);
  return reaches;
}

/** @type {import('eslint').Rule.RuleModule} */
const testDatabasesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'A test file that opens a database says which in its name (name.pglite|pg|both.test.ts)' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    if (!/\.test\.tsx?$/.test(file) || DATABASE_TEST_NAME.test(file)) return {};
    const check = (node) => {
      if (node.importKind === 'type' || node.exportKind === 'type') return;
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const target = resolveImport(file, source);
      if (!target || !opensTestDatabase(target)) return;
      const name = path.basename(file).replace(/\.test\.(tsx?)$/, '');
      context.report({
        node: node.source,
        message: `this file opens a database (${path.relative(root, target)} reaches ${TEST_DATABASE_MODULE}): name it ${name}.pglite.test.ts, ${name}.pg.test.ts or ${name}.both.test.ts, for the databases it runs on (vitest.config.ts)`,
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { imports: importsRule, 'test-databases': testDatabasesRule } };
