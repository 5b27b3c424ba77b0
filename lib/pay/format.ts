/**
 * Small formatting helpers of the payment page, shared by the server page and the browser.
 * Pure; nothing here touches money as a number (amounts stay decimal strings).
 */

/** Replaces `{name}` placeholders; unknown names are left as they are. */
export function interpolate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * A value isolated from the sentence around it (FSI ... PDI, Unicode's bidirectional algorithm,
 * UAX #9): its direction is its own first strong letter's, and its punctuation stays on its side.
 * Without it a merchant named "ACME!" in an Arabic sentence shows "!ACME". For plain-text places
 * (the page's title, a status said by the wallet button); markup isolates with `<bdi>`
 * (components/pay/ui.tsx `fill`).
 */
export function isolate(value: string | number): string {
  return `\u2068${value}\u2069`;
}

/**
 * An address in groups of `size` characters, for reading it against a wallet's screen. A
 * CashAddr prefix ("bitcoincash:") stays whole as the first group.
 */
export function chunkAddress(address: string, size = 4): string[] {
  const colon = address.indexOf(':');
  const prefix = colon >= 0 ? [address.slice(0, colon + 1)] : [];
  const rest = colon >= 0 ? address.slice(colon + 1) : address;
  const groups: string[] = [];
  for (let i = 0; i < rest.length; i += size) groups.push(rest.slice(i, i + size));
  return [...prefix, ...groups];
}

/** Under this much time left the countdown turns into an "expiring soon" warning. */
export const EXPIRING_SOON_MS = 5 * 60_000;

/**
 * Time left as "m:ss", or "h:mm:ss" from an hour up; never negative. Digits are ASCII in every
 * language, like the amounts and addresses they sit next to.
 */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export type CountdownPhase = 'running' | 'soon' | 'over';

export function countdownPhase(ms: number): CountdownPhase {
  return ms <= 0 ? 'over' : ms <= EXPIRING_SOON_MS ? 'soon' : 'running';
}

/**
 * A price for the page's language: a fiat amount in the currency style of the language ("$73.50",
 * "73,50 US$"), with no digit of `amount` dropped beyond the currency's usual ones; a coin amount
 * as the coin amounts elsewhere on the pages ("0.001 BTC"). Digits stay ASCII (`latn`) in every
 * language, like the coin amounts beside them. `amount` is a decimal string and is formatted as
 * one (Intl.NumberFormat takes strings exactly): never a float.
 */
export function formatPrice(amount: string, currency: string, language: string, fiat: boolean): string {
  if (!fiat || !/^\d+(\.\d+)?$/.test(amount)) return `${amount} ${currency}`;
  const options: Intl.NumberFormatOptions = { style: 'currency', currency, numberingSystem: 'latn' };
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(language, options);
  } catch {
    return `${amount} ${currency}`; // not a currency Intl knows
  }
  const digits = amount.split('.')[1]?.length ?? 0;
  if (digits > (format.resolvedOptions().maximumFractionDigits ?? 0)) {
    format = new Intl.NumberFormat(language, { ...options, maximumFractionDigits: digits });
  }
  // A decimal string is formatted exactly (ECMA-402's Intl.NumberFormat v3), every digit kept.
  return format.format(amount as Intl.StringNumericLiteral);
}

/** The form of a counted text for `count` in `language`, by Intl's plural rules (`other` when the language has no form of its own). */
export function plural(
  language: string,
  forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string },
  count: number,
): string {
  return forms[new Intl.PluralRules(language).select(count)] ?? forms.other;
}

/**
 * A coin amount (a decimal string) with the digit grouping and decimal sign of `language`
 * ("12,345.5" in English, "12.345,5" in German), every digit kept, ASCII digits in every
 * language. Anything that is not a plain decimal is returned as it is. Copy buttons copy the
 * plain string: wallets want it bare.
 */
export function formatAmount(amount: string, language: string): string {
  if (!/^\d+(\.\d+)?$/.test(amount)) return amount;
  const digits = amount.split('.')[1]?.length ?? 0;
  const format = new Intl.NumberFormat(language, {
    numberingSystem: 'latn',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return format.format(amount as Intl.StringNumericLiteral);
}

/**
 * A rough duration in the language's words ("4 minutes", "1 hour", "30 seconds"): seconds under
 * a minute and a half, minutes under an hour and a half, hours above, rounded up.
 */
export function formatDuration(seconds: number, language: string): string {
  const [value, unit] =
    seconds < 90
      ? [Math.max(1, Math.ceil(seconds)), 'second']
      : seconds < 5400
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long', numberingSystem: 'latn' }).format(
    value,
  );
}
