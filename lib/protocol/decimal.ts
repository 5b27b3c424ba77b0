import { z } from 'zod';

/**
 * An amount or a rate as the wire and the signer's files write it: digits with an optional
 * fraction, no sign or exponent, never a JSON number. Its bounds (decimals, digits) are the
 * currency's, checked where the currency is known (lib/money `parseUnits`).
 */
export const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal string');
