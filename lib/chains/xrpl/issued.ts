import 'server-only';
/**
 * Issued currencies (tokens) of the XRP Ledger: how an amount object `{currency, issuer, value}`
 * becomes a credit of one of the configured tokens, or nothing.
 * https://xrpl.org/docs/references/protocol/data-types/currency-formats
 *
 * - A token is its currency code AND its issuer: anyone can issue "RLUSD" or "USD" from their own
 *   account, so a code from another issuer, or the issuer's other currency, is another token.
 * - The ledger writes a code as 3 characters ("USD", the standard form) or as 40 hex digits (any
 *   160-bit code; a standard code may also be written so). `currencyCode` is the one place both
 *   become one form, for the catalog's codes and the node's alike.
 * - `value` is a decimal of up to 15 significant digits, in plain or exponent form ("1.5",
 *   "1e-7"); base units are the catalog's fixed decimals, so more fractional digits are rounded
 *   down: never more is credited than arrived.
 */
import type { Network } from '../../catalog';
import { MAX_AMOUNT_DIGITS } from '../../money';

/** The characters of a standard (3-character) code; "XRP" is not one. */
const STANDARD_CODE = /^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/;
const HEX_CODE = /^[0-9A-Fa-f]{40}$/;

/** The 40 upper-case hex digits of a currency code, whichever form it came in; null when it is none. */
export function currencyCode(code: string): string | null {
  if (HEX_CODE.test(code)) return code.toUpperCase();
  if (!STANDARD_CODE.test(code) || code === 'XRP') return null;
  // The standard form's 160 bits: 12 zero bytes, the 3 ASCII bytes, 5 zero bytes.
  return `${'00'.repeat(12)}${Buffer.from(code, 'ascii').toString('hex').toUpperCase()}${'00'.repeat(5)}`;
}

/** A token amount's `value` as the ledger writes it: a sign, digits, a fraction, an exponent. */
export const ISSUED_VALUE = /^(-?)(\d+)(?:\.(\d*))?(?:[eE]([-+]?\d{1,3}))?$/;

/**
 * `value` in base units of `decimals`, rounded down; null when it credits nothing (not positive,
 * not a value, or more than an amount column holds, which no real token payment reaches).
 */
export function issuedUnits(value: string, decimals: number): bigint | null {
  const match = ISSUED_VALUE.exec(value);
  if (!match) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = match as unknown as [
    string,
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  if (sign === '-') return null;
  const shift = Number(exponent) - fraction.length + decimals;
  const digits = BigInt(whole + fraction);
  const units = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  if (units <= 0n || units.toString().length > MAX_AMOUNT_DIGITS) return null;
  return units;
}

/** One configured token of a network, keyed by what the ledger names it by. */
export interface IssuedToken {
  ticker: string;
  decimals: number;
}

/** The network's configured issued currencies, by `tokenKey`. */
export function issuedTokens(network: Network): Map<string, IssuedToken> {
  const tokens = new Map<string, IssuedToken>();
  for (const c of network.currencies) {
    if (!c.contract || !c.code) continue;
    const code = currencyCode(c.code);
    if (!code) throw new Error(`${network.name}: ${c.ticker} has no valid currency code (${c.code})`);
    tokens.set(tokenKey(code, c.contract), { ticker: c.ticker, decimals: c.decimals });
  }
  return tokens;
}

/** Code (normalised) and issuer: the pair that names a token; addresses are compared as written (base58 is case-sensitive). */
export function tokenKey(code: string, issuer: string): string {
  return `${code}:${issuer}`;
}
