import 'server-only';
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * Dashboard passwords: Node's scrypt (memory-hard, RFC 7914) with N = 2^15, r = 8, p = 1, which
 * takes 32 MiB and some 50-100 ms per hash on one core, OWASP's recommended floor. The stored
 * text says its own parameters (`scrypt$N$r$p$salt$hash`, base64url), so raising them later
 * leaves the old hashes verifiable.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/**
 * The documented policy (docs/dashboard.md, "Passwords"): 12 characters at least, since length is what makes
 * a password costly to guess once the hash leaks; 256 at most, so a request cannot make the
 * server hash megabytes; not one of the common passwords, nor one of them with digits or symbols
 * added before or after it ("password12345": guessers try those first); not the e-mail address or
 * its local part. The dashboard's pages and the `npm run users` CLI both ask passwordProblem.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

function scrypt(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  // maxmem: scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is just below N = 2^15, r = 8.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, COST.N, COST.r, COST.p);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` is the one `stored` was made from; false for anything else, a malformed hash included. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash, extra] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash || extra !== undefined || password.length > PASSWORD_MAX_LENGTH)
    return false;
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  if (![N, R, P].every((v) => Number.isSafeInteger(v) && v > 0)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), N, R, P);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * A hash of a password nobody has, to verify against when the account is unknown or has no
 * password yet: a sign-in then takes as long as one with a wrong password, so the answer's
 * timing does not tell which addresses have accounts.
 */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(18).toString('base64url'));
  return dummy;
}

/** Digits and symbols at either end: what people add to a common word to pass a length or "a digit" rule. */
const PADDING = /^[^\p{L}]+|[^\p{L}]+$/gu;

let common: Set<string> | undefined;
/**
 * zxcvbn's list of common passwords (about 49,000), loaded once on first use. Required at run time
 * rather than imported: the CLIs' bundles keep packages external, and Node's ESM loader wants an
 * import attribute on JSON that esbuild does not keep.
 */
function isCommon(password: string): boolean {
  common ??= new Set(
    (createRequire(import.meta.url)('@zxcvbn-ts/language-common/src/passwords.json') as string[]).map((p) =>
      p.toLowerCase(),
    ),
  );
  return common.has(password.toLowerCase());
}

/** Why `password` may not be used by `email`, or undefined when it may. */
export function passwordProblem(password: string, email?: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`;
  if (isCommon(password) || isCommon(password.replace(PADDING, '')))
    return 'This password is on a list of common passwords, or is one with digits or symbols added; choose another.';
  if (email) {
    const lower = password.toLowerCase();
    const address = email.toLowerCase();
    if (lower === address || lower === address.split('@')[0]) return 'The password must not be your e-mail address.';
  }
  return undefined;
}
