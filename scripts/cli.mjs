#!/usr/bin/env node
// `npm run chains|collect|db|keys|sandbox|signer|users|webhooks|worker -- ...`: runs scripts/<name>.ts as one file bundled by
// esbuild, not through tsx's loader. The loader resolves and transforms every module of the
// gateway at each start, some 2 CPU-seconds of a 3.5 s start (measured on `sandbox --help`); the
// bundle starts in about 1 s. The bundle is kept under .tmp/cli by the hash of its contents, so
// concurrent runs of the same code share one file and never write over each other, and is
// started again as long as none of the files it was built from has changed (size and time, from
// esbuild's list of its inputs); otherwise it is built again first (decisions 023, 024).
//
// Packages are bundled too: left outside, Node resolved each of their files at every start (viem,
// ox and @solana/kit are hundreds of modules), some 1 CPU-second of a 1.4 s `sandbox --help`;
// bundled, the start takes about 0.4 s. The packages the server keeps out of its bundles stay
// outside here too (scripts/lib/server-external-packages.mjs: the embedded database's, the PDF
// and font packages find their WebAssembly, fonts and data beside their own modules). `--conditions=react-server` is still
// given to the process for it, and to esbuild for the rest (`server-only` resolves to its empty
// module with it).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';
import { root } from './lib/build.mjs';
import { SERVER_EXTERNAL_PACKAGES } from './lib/server-external-packages.mjs';
import { currentBundle, recordBundle } from './lib/cli-bundle.mjs';

/**
 * `import.meta.url` keeps meaning the module's own source file, as it does under tsx and Next.js:
 * modules find files beside them with it (lib/chains/derivation-thread.ts starts its worker from
 * derivation-worker.ts; lib/chains/child-key.ts resolves a package from there). In a bundle it
 * would otherwise be the bundle's URL.
 */
const sourceFileUrls = {
  name: 'source-file-urls',
  setup(on) {
    on.onLoad({ filter: /\.[cm]?tsx?$/ }, async ({ path: source }) => {
      if (source.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await fs.promises.readFile(source, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(source).href)),
        loader: source.endsWith('x') ? 'tsx' : 'ts',
      };
    });
  },
};

const COMMANDS = ['chains', 'collect', 'db', 'keys', 'sandbox', 'signer', 'users', 'webhooks', 'worker'];
const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name)) {
  console.error(`usage: node --conditions=react-server scripts/cli.mjs <${COMMANDS.join('|')}> [arguments]`);
  process.exit(2);
}

const entry = path.join(root, 'scripts', `${name}.ts`);
const manifest = path.join(root, '.tmp', 'cli', `${name}.json`);
const bundle = currentBundle(root, manifest) ?? (await bundleOf(entry, manifest));
// The command reads its arguments as if it had been started itself (node scripts/<name>.ts ...).
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(bundle).href);

/**
 * scripts/<name>.ts and the gateway modules it imports as one ES module file; its path.
 * `manifest` records it with its inputs' fingerprint, unless an input changed while the build ran
 * (then the next start builds again rather than trust a bundle that may predate the change).
 */
async function bundleOf(file, manifest) {
  const started = Date.now();
  let result;
  try {
    result = await build({
      entryPoints: [file],
      absWorkingDir: root,
      metafile: true,
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: SERVER_EXTERNAL_PACKAGES,
      // CommonJS packages inside an ES module call `require` for Node's own modules.
      banner: {
        js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
      },
      conditions: ['react-server'],
      tsconfig: path.join(root, 'tsconfig.json'),
      logLevel: 'silent',
      plugins: [sourceFileUrls],
    });
  } catch (error) {
    // A syntax error in the sources: esbuild's own message names the file and line.
    console.error(error.message);
    process.exit(1);
  } finally {
    await stop();
  }
  const code = result.outputFiles[0].text;
  const dir = path.join(root, '.tmp', 'cli');
  const target = path.join(dir, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(dir, { recursive: true });
    const partial = `${target}.${process.pid}`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, target);
  }
  // What else decides the bundle's contents: how it is built, the path aliases, and the installed
  // packages (npm's record of the last install: their thousands of files are not fingerprinted
  // one by one).
  const inputs = [
    ...Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules')),
    'scripts/cli.mjs',
    'scripts/lib/server-external-packages.mjs',
    'tsconfig.json',
    'node_modules/.package-lock.json',
  ];
  recordBundle(root, manifest, target, inputs, started);
  return target;
}
