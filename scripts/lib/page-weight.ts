/**
 * The payment page's first-load weight, measured one way for `npm run bench:page` (which prints
 * it) and e2e/pay-weight.spec.ts (which fails when it is over the budget): decision 055.
 *
 * - First-load JavaScript: every script a page's HTML makes the browser load up front (`<script
 *   src>` except noModule polyfills, and script preloads), each gzipped on its own, summed. The
 *   floor is the same for an empty App Router page of the same build (the 404 page of an unknown
 *   path: the root layout and nothing else), so the budget is about our code, not the framework's.
 * - The "Pay with wallet" code (lib/pay/wallet-send for EVM, lib/pay/wallet-solana-send for
 *   Solana, each a dynamic import on the press): the build's chunks that hold them, found by a
 *   string only that module has; none may be a first-load file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** What the payment page may add to the floor's first-load JavaScript, gzip, TanStack Query included. */
export const PAGE_BUDGET_BYTES = 20 * 1024;

/** Per lazily loaded wallet module, a string of it that survives minification and is in no other module. */
export const WALLET_CODE_MARKERS = {
  'lib/pay/wallet-send.ts': 'wallet_switchEthereumChain',
  'lib/pay/wallet-solana-send.ts': '/solana-transaction?account=',
} as const;

export interface ScriptFile {
  /** As the HTML names it (a path under /_next/static). */
  url: string;
  raw: number;
  gzip: number;
}

export interface FirstLoad {
  status: number;
  files: ScriptFile[];
  /** The files' gzip sizes, summed. */
  gzip: number;
  /** The HTML's own size, gzip (it carries the page's texts, as props). */
  html: number;
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function get(origin: string, urlPath: string): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(`${origin}${urlPath}`);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** The scripts the HTML of `urlPath` makes the browser load up front, gzipped one by one; and the HTML's own size. */
export async function firstLoadJs(origin: string, urlPath: string): Promise<FirstLoad> {
  const page = await get(origin, urlPath);
  const html = page.body.toString('utf8');
  const urls = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*>/g)) {
    const src = /\ssrc="([^"]+)"/.exec(match[0])?.[1];
    // noModule scripts are polyfills for browsers without ES modules: never loaded by current ones.
    if (src && !/\snomodule/i.test(match[0])) urls.add(src);
  }
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    const href = /\shref="([^"]+)"/.exec(tag)?.[1];
    if (
      href &&
      /\srel="(preload|modulepreload)"/.test(tag) &&
      (/\sas="script"/.test(tag) || /rel="modulepreload"/.test(tag))
    )
      urls.add(href);
  }
  const files = [];
  for (const url of urls) {
    const file = await get(origin, url.replace(/&amp;/g, '&'));
    if (file.status !== 200) throw new Error(`${url} answered ${file.status}`);
    files.push({ url, raw: file.body.length, gzip: gzipSync(file.body).length });
  }
  return {
    status: page.status,
    files,
    gzip: files.reduce((sum, f) => sum + f.gzip, 0),
    html: gzipSync(page.body).length,
  };
}

/** The floor: the first load of an empty App Router page of the build behind `origin`. */
export async function floorFirstLoad(origin: string): Promise<FirstLoad> {
  return firstLoadJs(origin, `/page-weight-floor-${Date.now().toString(36)}`);
}

/** The build's script chunks (under `root`/.next/static) that hold the lazily loaded wallet code, each with the modules it holds. */
export function lazyWalletChunks(root: string): (ScriptFile & { modules: string[] })[] {
  const dir = path.join(root, '.next', 'static');
  const found = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const body = fs.readFileSync(file);
    const modules = Object.entries(WALLET_CODE_MARKERS)
      .filter(([, marker]) => body.includes(marker))
      .map(([module]) => module);
    if (modules.length === 0) continue;
    found.push({
      modules,
      url: `/_next/static/${path.relative(dir, file).split(path.sep).join('/')}`,
      raw: body.length,
      gzip: gzipSync(body).length,
    });
  }
  return found;
}

/** The wallet chunks among a page's first-load files (there must be none). */
export const eagerWalletChunks = (wallet: ScriptFile[], page: FirstLoad) =>
  wallet.filter((chunk) => page.files.some((f) => f.url.split('?')[0] === chunk.url)).map((f) => f.url);
