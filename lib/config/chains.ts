/**
 * Live networks: one group of environment variables per catalog network, named after it in upper
 * case (`LITECOIN_RPC_URL`, `ETHEREUM_TOKENS`, ...). A network is live when its `<NETWORK>_RPC_URL`
 * is set; then its `<NETWORK>_XPUB` is required (on ripple, `RIPPLE_ADDRESS` and
 * `RIPPLE_UNTAGGED_MERCHANT` instead: parseXrpl). Every problem names its variable.
 * `<NETWORK>_RPC_URL` may list several nodes, comma separated, tried in that order
 * (lib/chains/failover.ts). docs/live-chains.md ("Settings per network") documents each
 * variable; docs/decisions/010-live-chain-adapters.md why.
 *
 * This file only reads and checks the text of the variables; whether an extended public key
 * derives addresses is checked when the live networks are built (lib/chains/live.ts), at start-up.
 */
import { z } from 'zod';
import { NETWORKS, findCurrency, type AddressChain, type Network } from '../catalog';
import { parseTronConfig } from './tron';
import { DEPOSIT_SCRIPT, parseKeyDescriptor, type UtxoCoin } from '../chains/utxo/transactions';

export interface RpcEndpoint {
  /** The URL without credentials (safe to show in a log line). */
  url: string;
  user?: string;
  password?: string;
  timeoutMs: number;
}

export interface LiveChainConfig {
  network: string;
  family: 'utxo' | 'evm' | 'tron' | 'xrpl' | 'solana';
  /** The node an adapter talks to: the first of `nodes` here; lib/chains/live.ts gives each node's adapter its own. */
  rpc: RpcEndpoint;
  /** Every configured node, in the order they are preferred. */
  nodes: RpcEndpoint[];
  /** Blocks a node may trail the best node's head before it is set aside. */
  maxNodeLag: number;
  /** Extended public key of the external chain (…/0) the deposit addresses derive from; empty on tag networks. */
  xpub: string;
  /**
   * UTXO: the key as a descriptor with its origin, when `<NETWORK>_XPUB` was given as one (in
   * canonical form): what a collection plan needs (docs/decisions/052). Without it, no collection.
   */
  keyDescriptor?: string;
  /** Tag networks (ripple, solana): the receiving account (wallet) every order's tag (reference) is on. */
  account?: string;
  /** Tag networks: the merchant whose orphan deposits payments to the account under no order's tag become. */
  untaggedMerchant?: string;
  chain: AddressChain;
  /** Confirmations a payment needs; the catalog's count when unset. */
  confirmations: number;
  /** EVM: the chain id the node must report (the catalog's unless overridden for a test node). */
  chainId?: number;
  /** EVM and Tron: the token contracts that credit, by catalog ticker; XRP Ledger: the issuer of each issued currency; Solana: the mints. */
  tokens: { ticker: string; contract: string }[];
  /** EVM: a node's WebSocket endpoint announcing new blocks (newHeads), which wake the watcher. */
  wsUrl?: string;
  /** EVM and Tron: blocks the watcher stays behind the node's head (incomplete logs or results at the head). */
  headLag: number;
  /** EVM: most blocks one eth_getLogs asks for (halved further when the node refuses a range). */
  logBlockRange: number;
  /** UTXO: read the node's mempool (payments seen before they are mined). */
  mempool: boolean;
  /** Tron: the node's API key (TronGrid's `TRON-PRO-API-KEY` header); a secret. */
  apiKey?: string;
  /** Tron: a payment counts once its block is solidified (`<NETWORK>_CONFIRMATIONS=solid`), not at a count. */
  solidified?: boolean;
}

/**
 * Blocks the watcher stays behind a node's head by default: EVM nodes may answer incomplete logs
 * for their newest blocks, and a Tron provider may answer a block before its execution results
 * (docs/decisions/033).
 */
const DEFAULT_HEAD_LAG: Partial<Record<Network['family'], number>> = { evm: 3, tron: 1 };

/** The catalog networks a live adapter exists for. */
const LIVE_FAMILIES = new Set(['utxo', 'evm', 'tron', 'xrpl', 'solana']);

const SUFFIXES = [
  'RPC_URL',
  'RPC_USER',
  'RPC_PASSWORD',
  'RPC_MAX_LAG',
  'XPUB',
  'CHAIN',
  'CONFIRMATIONS',
  'TOKENS',
  'CHAIN_ID',
  'HEAD_LAG',
  'LOG_BLOCK_RANGE',
  'MEMPOOL',
  'WS_URL',
  'API_KEY',
  'ADDRESS',
  'UNTAGGED_MERCHANT',
] as const;
export type EnvSuffix = (typeof SUFFIXES)[number];

export const intIn = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);

const isHttpUrl = (v: string) => {
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
};

const wsUrlSchema = z.string().refine((v) => {
  try {
    return /^wss?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}, 'must be a ws:// or wss:// URL');

/** One URL, or several separated by commas (failover, in that order). */
const rpcUrls = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
  )
  .refine((urls) => urls.length > 0, 'must be an http:// or https:// URL, or several separated by commas')
  .superRefine((urls, ctx) => {
    // Entries are named by position, never quoted: a URL may hold credentials or an API key.
    const bad = urls.findIndex((u) => !isHttpUrl(u));
    if (bad >= 0)
      ctx.addIssue({
        code: 'custom',
        message:
          urls.length > 1
            ? `entry ${bad + 1} of ${urls.length} is not an http:// or https:// URL`
            : 'must be an http:// or https:// URL',
      });
    else if (new Set(urls).size !== urls.length) ctx.addIssue({ code: 'custom', message: 'lists the same node twice' });
  });

export function envPrefix(network: Network): string {
  return network.name.toUpperCase();
}

/** Parses every live network's variables; answers the networks and the problems, one line each. */
export function parseLiveChains(env: Record<string, string | undefined>): {
  chains: LiveChainConfig[];
  issues: string[];
} {
  const issues: string[] = [];
  const chains: LiveChainConfig[] = [];
  const timeout = intIn(100, 600_000).safeParse(env.CHAIN_RPC_TIMEOUT_MS ?? '15000');
  if (!timeout.success) issues.push(`CHAIN_RPC_TIMEOUT_MS: ${timeout.error.issues[0]!.message}`);
  for (const network of NETWORKS) {
    const prefix = envPrefix(network);
    const get = (suffix: (typeof SUFFIXES)[number]) => env[`${prefix}_${suffix}`];
    const set = SUFFIXES.filter((s) => get(s) !== undefined);
    if (set.length === 0) continue;
    const problem = (suffix: string, message: string) => issues.push(`${prefix}_${suffix}: ${message}`);
    if (!LIVE_FAMILIES.has(network.family)) {
      problem(set[0]!, `live payments on ${network.name} are not supported yet (no ${network.family} adapter)`);
      continue;
    }
    const rawUrl = get('RPC_URL');
    if (rawUrl === undefined) {
      problem(
        'RPC_URL',
        `is required when ${set.map((s) => `${prefix}_${s}`).join(', ')} ${set.length > 1 ? 'are' : 'is'} set`,
      );
      continue;
    }
    const before = issues.length;
    if (network.family === 'xrpl' || network.family === 'solana') {
      const live = parseAccountNetwork(network, get, problem, timeout.success ? timeout.data : 15_000);
      if (live && issues.length === before) chains.push(live);
      continue;
    }
    for (const suffix of ['ADDRESS', 'UNTAGGED_MERCHANT'] as const) {
      if (get(suffix) !== undefined)
        problem(suffix, 'applies to tag networks (ripple, solana) only; this network derives addresses from its XPUB');
    }
    const field = <T>(suffix: (typeof SUFFIXES)[number], schema: z.ZodType<T>, fallback: T): T => {
      const raw = get(suffix);
      if (raw === undefined) return fallback;
      const parsed = schema.safeParse(raw);
      if (parsed.success) return parsed.data;
      problem(suffix, parsed.error.issues[0]!.message);
      return fallback;
    };
    const urls = field('RPC_URL', rpcUrls, []);
    let xpub = get('XPUB');
    // A descriptor with its key origin (`wpkh([fingerprint/84h/2h/0h]xpub.../0/*)`) names the
    // master fingerprint and path a collection's PSBT needs; the pool derives from its chain /0.
    let keyDescriptor: string | undefined;
    if (xpub !== undefined && /^\s*(wpkh|pkh)\(/.test(xpub)) {
      if (network.family !== 'utxo') problem('XPUB', 'takes a descriptor on UTXO networks only');
      else
        try {
          const descriptor = parseKeyDescriptor(xpub);
          if (descriptor.script !== DEPOSIT_SCRIPT[network.name as UtxoCoin])
            problem(
              'XPUB',
              `${network.name} deposit addresses are ${DEPOSIT_SCRIPT[network.name as UtxoCoin]}(...), not ${descriptor.script}(...)`,
            );
          keyDescriptor = descriptor.text;
          xpub = descriptor.chainXpub;
        } catch (error) {
          problem('XPUB', (error as Error).message);
        }
    }
    if (xpub === undefined)
      problem(
        'XPUB',
        `is required with ${prefix}_RPC_URL (the watch-only extended public key of the deposit addresses)`,
      );
    const chain = field(
      'CHAIN',
      z.enum(['mainnet', 'testnet', 'regtest'], { error: 'must be mainnet, testnet or regtest' }),
      'mainnet' as AddressChain,
    );
    const tron = network.family === 'tron' ? parseTronConfig(network, get, problem) : undefined;
    const confirmations = tron ? tron.confirmations : field('CONFIRMATIONS', intIn(1, 1000), network.confirmations);
    const evmOnly = (suffix: (typeof SUFFIXES)[number]) => {
      if (network.family !== 'evm' && get(suffix) !== undefined) problem(suffix, `applies to EVM networks only`);
    };
    (['CHAIN_ID', 'LOG_BLOCK_RANGE', 'WS_URL'] as const).forEach(evmOnly);
    if (network.family !== 'evm' && network.family !== 'tron' && get('HEAD_LAG') !== undefined)
      problem('HEAD_LAG', 'applies to EVM and Tron networks only');
    const wsUrl = network.family === 'evm' ? field('WS_URL', wsUrlSchema, undefined as string | undefined) : undefined;
    if (network.family === 'utxo' && get('TOKENS') !== undefined)
      problem('TOKENS', 'applies to EVM, Tron and XRP Ledger networks only');
    if (network.family !== 'tron' && get('API_KEY') !== undefined) problem('API_KEY', 'applies to Tron only');
    if (network.family !== 'utxo' && get('MEMPOOL') !== undefined) problem('MEMPOOL', 'applies to UTXO networks only');
    const tokens =
      network.family === 'evm'
        ? parseTokens(network, get('TOKENS'), (m) => problem('TOKENS', m))
        : (tron?.tokens ?? []);
    const nodes = nodesOf(urls, get, problem, timeout.success ? timeout.data : 15_000);
    const maxNodeLag = field('RPC_MAX_LAG', intIn(0, 100_000), 5);
    if (issues.length > before) continue;
    chains.push({
      network: network.name,
      family: network.family as LiveChainConfig['family'],
      rpc: nodes[0]!,
      nodes,
      maxNodeLag,
      xpub: xpub!,
      ...(keyDescriptor !== undefined ? { keyDescriptor } : {}),
      chain,
      confirmations,
      chainId: network.family === 'evm' ? field('CHAIN_ID', intIn(1, 2 ** 48), network.chainId!) : undefined,
      tokens,
      ...(wsUrl !== undefined ? { wsUrl } : {}),
      headLag: field('HEAD_LAG', intIn(0, 1000), DEFAULT_HEAD_LAG[network.family] ?? 0),
      logBlockRange: field('LOG_BLOCK_RANGE', intIn(1, 1_000_000), 1000),
      mempool: field('MEMPOOL', z.enum(['true', 'false'], { error: 'must be true or false' }), 'true') === 'true',
      ...(tron && { apiKey: tron.apiKey, solidified: tron.solidified }),
    });
  }
  return { chains, issues };
}

/** What differs between the networks of one receiving account (parseAccountNetwork). */
interface AccountFamily {
  /** The receiving account, what it looks like and an example of its form (its checksum, where it has one, is verified when the live networks are built). */
  account: { valid: (account: string) => boolean; form: string };
  /** What `<NETWORK>_TOKENS` names per ticker. */
  token: { valid: (contract: string) => boolean; example: string };
  /** Blocks (ledgers, slots) a node may trail the best one by default. */
  maxNodeLag: number;
  /** False where only final blocks are read and a count would mean nothing (Solana's finalized commitment). */
  confirmations: boolean;
}

/**
 * The networks of one receiving account for the whole gateway, told apart per order by a tag: the
 * XRP Ledger (docs/decisions/034-one-xrp-receiving-account-per-gateway.md), whose destination
 * tags tell orders apart, and Solana (docs/decisions/057), whose payment references do. A node and
 * the receiving account (`<PREFIX>_ADDRESS`: a classic "r..." address; a Solana wallet), and the
 * merchant (`<PREFIX>_UNTAGGED_MERCHANT`, its id) whose orphan deposits the payments to the
 * account under no order's tag become (its existence is checked when the address pool is filled),
 * and the tokens that credit (`<PREFIX>_TOKENS`: `TICKER:r<issuer>` of each issued currency, whose
 * currency code is the catalog's; `TICKER:<mint>` on Solana). No XPUB: nothing is derived. Answers
 * null after reporting a problem.
 */
function parseAccountNetwork(
  network: Network,
  get: (suffix: EnvSuffix) => string | undefined,
  problem: (suffix: string, message: string) => void,
  timeoutMs: number,
): LiveChainConfig | null {
  const family = ACCOUNT_FAMILIES[network.family as 'xrpl' | 'solana'];
  const prefix = envPrefix(network);
  const notHere = ['XPUB', 'CHAIN', 'CHAIN_ID', 'HEAD_LAG', 'LOG_BLOCK_RANGE', 'MEMPOOL', 'WS_URL', 'API_KEY'] as const;
  for (const suffix of [...notHere, ...(family.confirmations ? [] : (['CONFIRMATIONS'] as const))]) {
    if (get(suffix) !== undefined)
      problem(
        suffix,
        suffix === 'CONFIRMATIONS'
          ? `does not apply to ${network.name} (only finalized transactions are read, and they are final)`
          : `does not apply to ${network.name} (one receiving account with a tag per order: set ${prefix}_ADDRESS)`,
      );
  }
  const urls = rpcUrls.safeParse(get('RPC_URL'));
  if (!urls.success) problem('RPC_URL', urls.error.issues[0]!.message);
  const maxNodeLag = intIn(0, 100_000).safeParse(get('RPC_MAX_LAG') ?? String(family.maxNodeLag));
  if (!maxNodeLag.success) problem('RPC_MAX_LAG', maxNodeLag.error.issues[0]!.message);
  const account = get('ADDRESS');
  if (account === undefined)
    problem('ADDRESS', `is required with ${prefix}_RPC_URL (the gateway's receiving account, ${family.account.form})`);
  else if (!family.account.valid(account)) problem('ADDRESS', `must be ${family.account.form}`);
  const untaggedMerchant = get('UNTAGGED_MERCHANT');
  if (untaggedMerchant === undefined) {
    problem(
      'UNTAGGED_MERCHANT',
      `is required with ${prefix}_RPC_URL (the merchant id, from npm run keys, whose orphan deposits payments without a known tag become)`,
    );
  } else if (!z.uuid().safeParse(untaggedMerchant).success) {
    problem('UNTAGGED_MERCHANT', 'must be a merchant id (a UUID, as npm run keys -- list shows it)');
  }
  const confirmations = intIn(1, 1000).safeParse(
    (family.confirmations && get('CONFIRMATIONS')) || String(network.confirmations),
  );
  if (!confirmations.success) problem('CONFIRMATIONS', confirmations.error.issues[0]!.message);
  const tokens = parseTokens(network, get('TOKENS'), (m) => problem('TOKENS', m), family.token);
  const nodes = nodesOf(urls.success ? urls.data : [], get, problem, timeoutMs);
  if (
    !urls.success ||
    !maxNodeLag.success ||
    account === undefined ||
    untaggedMerchant === undefined ||
    !confirmations.success
  )
    return null;
  return {
    network: network.name,
    family: network.family as 'xrpl' | 'solana',
    rpc: nodes[0]!,
    nodes,
    maxNodeLag: maxNodeLag.data,
    xpub: '',
    account,
    untaggedMerchant: untaggedMerchant.toLowerCase(),
    chain: 'mainnet',
    confirmations: confirmations.data,
    tokens,
    headLag: 0,
    logBlockRange: 1,
    mempool: false,
  };
}

/**
 * `USDT:0x...,USDC:0x...` (comma or space separated); `none` for native coin only; unset for the
 * catalog's contracts. Tickers are the network's catalog tokens, whose decimals apply.
 */
export function parseTokens(
  network: Network,
  raw: string | undefined,
  problem: (message: string) => void,
  contractFormat: { valid: (contract: string) => boolean; example: string } = EVM_CONTRACT,
): { ticker: string; contract: string }[] {
  const catalogTokens = network.currencies
    .filter((c) => c.contract)
    .map((c) => ({ ticker: c.ticker, contract: c.contract! }));
  if (raw === undefined) return catalogTokens;
  if (raw.trim().toLowerCase() === 'none') return [];
  const tokens: { ticker: string; contract: string }[] = [];
  for (const entry of raw.split(/[\s,]+/).filter(Boolean)) {
    const [ticker = '', contract = '', extra] = entry.split(':');
    const currency = findCurrency(network, ticker);
    if (extra !== undefined || !contractFormat.valid(contract)) {
      problem(`"${entry}" is not ${contractFormat.example}`);
    } else if (!currency || !currency.contract) {
      const known = catalogTokens.map((t) => t.ticker).join(', ') || 'none';
      problem(`${ticker.toUpperCase()} is not a token of ${network.name} (known: ${known})`);
    } else if (tokens.some((t) => t.ticker === currency.ticker)) {
      problem(`${currency.ticker} is listed twice`);
    } else {
      tokens.push({ ticker: currency.ticker, contract });
    }
  }
  return tokens;
}

/** A classic XRP Ledger address: "r" and base58 (its checksum is verified when the live networks are built). */
const CLASSIC_ADDRESS = /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/;

const XRPL_ISSUER = {
  valid: (issuer: string) => CLASSIC_ADDRESS.test(issuer),
  example: 'TICKER:r<issuer account> (e.g. RLUSD:rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De)',
};

/** 32 bytes in base58; that it decodes to 32 bytes is checked when the live networks are built. */
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

const ACCOUNT_FAMILIES: Record<'xrpl' | 'solana', AccountFamily> = {
  xrpl: {
    account: { valid: (a) => CLASSIC_ADDRESS.test(a), form: 'a classic XRP Ledger address (r..., not an X-address)' },
    token: XRPL_ISSUER,
    maxNodeLag: 5,
    confirmations: true,
  },
  solana: {
    account: { valid: (a) => SOLANA_ADDRESS.test(a), form: 'a Solana wallet address (base58, 32 to 44 characters)' },
    token: {
      valid: (mint) => SOLANA_ADDRESS.test(mint),
      example: 'TICKER:<mint address> (e.g. USDC:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v)',
    },
    // Slots are 400 ms and nodes a few apart as a rule: 150 slots is a minute behind.
    maxNodeLag: 150,
    confirmations: false,
  },
};

const EVM_CONTRACT = {
  valid: (contract: string) => /^0x[0-9a-fA-F]{40}$/.test(contract),
  example: 'TICKER:0x<40 hex digits> (e.g. USDT:0xdAC17F958D2ee523a2206206994597C13D831ec7)',
};

/** Each node's endpoint: credentials in a URL are that node's; RPC_USER and RPC_PASSWORD are every other node's. */
function nodesOf(
  urls: string[],
  get: (suffix: EnvSuffix) => string | undefined,
  problem: (suffix: string, message: string) => void,
  timeoutMs: number,
): RpcEndpoint[] {
  if ((get('RPC_USER') === undefined) !== (get('RPC_PASSWORD') === undefined))
    problem(get('RPC_USER') === undefined ? 'RPC_USER' : 'RPC_PASSWORD', 'RPC user and password go together');
  return urls.map((url): RpcEndpoint => {
    const endpoint = splitCredentials(url);
    return {
      url: endpoint.url,
      user: endpoint.user ?? get('RPC_USER'),
      password: endpoint.user !== undefined ? endpoint.password : get('RPC_PASSWORD'),
      timeoutMs,
    };
  });
}

/** `http://user:pass@host/` -> the URL without them, and them (percent-decoded). */
function splitCredentials(raw: string): { url: string; user?: string; password?: string } {
  const url = new URL(raw);
  const user = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.username ? decodeURIComponent(url.password) : undefined;
  url.username = '';
  url.password = '';
  return { url: url.toString(), user, password };
}
