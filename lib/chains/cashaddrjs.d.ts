// cashaddrjs ships no types. Only the two calls lib/chains uses are declared; the module is
// CommonJS (`module.exports = { encode, decode, ValidationError }`), so it is imported as a default.
declare module 'cashaddrjs' {
  export type CashAddrType = 'P2PKH' | 'P2SH';
  export interface CashAddrDecoded {
    /** Lower-case network prefix, e.g. "bitcoincash". */
    prefix: string;
    type: CashAddrType;
    hash: Uint8Array;
  }
  const cashaddr: {
    /** Throws a ValidationError on a bad prefix, type or hash. */
    encode(prefix: string, type: CashAddrType, hash: Uint8Array): string;
    /** Throws a ValidationError on a missing prefix, mixed case or a bad checksum. */
    decode(address: string): CashAddrDecoded;
  };
  export default cashaddr;
}
