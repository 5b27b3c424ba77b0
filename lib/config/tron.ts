/**
 * The Tron variables that differ from the other families (lib/config/chains.ts reads the common
 * ones): `TRON_CONFIRMATIONS` is a count or `solid` (a payment counts once its block is solidified,
 * i.e. final), `TRON_TOKENS` names base58 `T...` contracts, and `TRON_API_KEY` is sent as TronGrid's
 * `TRON-PRO-API-KEY` header. docs/decisions/033-tron-adapter.md says why.
 */
import type { Network } from '../catalog';
import { intIn, parseTokens, type EnvSuffix } from './chains';

/** Base58check of a 21-byte Tron address: "T" and 33 more base58 characters (checked fully by the adapter's address code at start-up). */
const TRON_CONTRACT = {
  valid: (contract: string) => /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(contract),
  example: 'TICKER:T<33 base58 characters> (e.g. USDT:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t)',
};

export interface TronConfig {
  confirmations: number;
  solidified: boolean;
  tokens: { ticker: string; contract: string }[];
  apiKey?: string;
}

export function parseTronConfig(
  network: Network,
  get: (suffix: EnvSuffix) => string | undefined,
  problem: (suffix: string, message: string) => void,
): TronConfig {
  const rawConfirmations = get('CONFIRMATIONS');
  let confirmations = network.confirmations;
  const solidified = rawConfirmations?.trim().toLowerCase() === 'solid';
  if (solidified) {
    confirmations = 1; // the solidified head is the adapter's head: its blocks need nothing more
  } else if (rawConfirmations !== undefined) {
    const parsed = intIn(1, 1000).safeParse(rawConfirmations);
    if (parsed.success) confirmations = parsed.data;
    else problem('CONFIRMATIONS', `${parsed.error.issues[0]!.message}, or "solid"`);
  }
  // TRON_CHAIN does not change an address (they are the same on mainnet and the test networks), but
  // a collection plan carries it: the public test seed's signer signs only plans of a test chain
  // (docs/decisions/086). Parsed with every network's `_CHAIN` (./chains.ts).
  const apiKey = get('API_KEY');
  if (apiKey !== undefined && !/^[\x21-\x7e]{1,200}$/.test(apiKey))
    problem('API_KEY', 'must be 1 to 200 printable characters without spaces');
  const tokens = parseTokens(network, get('TOKENS'), (m) => problem('TOKENS', m), TRON_CONTRACT);
  return { confirmations, solidified, tokens, ...(apiKey !== undefined && { apiKey }) };
}
