/**
 * An XRP Ledger refund's one transaction (docs/decisions/119): a Payment of XRP from the merchant's
 * own account to the account and destination tag its payer confirmed. Written once here for the
 * gateway, which builds and checks it, and for the signer, which checks and signs it (no
 * server-only: scripts/signer imports it). The canonical binary format and the signatures are the
 * ledger's own libraries' (ripple-binary-codec, ripple-keypairs): bytes serialized by hand could
 * be read otherwise by the ledger than by the one who signed them.
 *
 * Documentation followed (xrpl.org):
 * - Payment fields and flags: https://xrpl.org/docs/references/protocol/transactions/types/payment
 * - common fields (Fee, Sequence, LastLedgerSequence, Flags, SigningPubKey, TxnSignature) and the
 *   global flag tfFullyCanonicalSig: https://xrpl.org/docs/references/protocol/transactions/common-fields
 * - the hash of a signed transaction, SHA-512Half of the prefix "TXN\0" and its binary:
 *   https://xrpl.org/docs/references/protocol/data-types/basic-data-types#hashes
 */
import { sha512 } from '@noble/hashes/sha2.js';
import { decode, encode, encodeForSigning } from 'ripple-binary-codec';
import { deriveAddress, deriveKeypair, sign, verify } from 'ripple-keypairs';

/** tfFullyCanonicalSig: set on every transaction by current libraries; the only flag a refund may carry. */
export const TF_FULLY_CANONICAL_SIG = 0x8000_0000;
/** The prefix of a signed transaction's hash ("TXN\0"). */
const TRANSACTION_ID_PREFIX = Uint8Array.of(0x54, 0x58, 0x4e, 0x00);
/** The fields of an unsigned refund; any other (Paths, SendMax, DeliverMin, Memos...) is refused. */
const UNSIGNED_FIELDS = new Set([
  'TransactionType',
  'Account',
  'Destination',
  'DestinationTag',
  'Amount',
  'Fee',
  'Sequence',
  'LastLedgerSequence',
  'Flags',
  'SigningPubKey',
]);

/** An XRP refund's fields, as the plan states them beside their binary. Drops as strings. */
export interface XrplRefundFields {
  TransactionType: 'Payment';
  Account: string;
  Destination: string;
  DestinationTag?: number;
  Amount: string;
  Fee: string;
  Sequence: number;
  LastLedgerSequence: number;
  Flags: number;
}

/** What a refund's transaction must be: from `account`, `drops` to `destination` under `tag`, its fee at most `maxFee`. */
export interface XrplRefundExpected {
  account: string;
  destination: string;
  tag: number | null;
  drops: bigint;
  maxFee: bigint;
}

/** Thrown when a signed transaction is not the plan's, signed by its account. */
export class XrplSubmissionRefusal extends Error {
  override name = 'XrplSubmissionRefusal';
}

/** The unsigned transaction's canonical binary, hex (upper case, as the ledger writes it). */
export function encodeXrplRefund(fields: XrplRefundFields): string {
  return encode({ ...fields, SigningPubKey: '' } as unknown as Parameters<typeof encode>[0]);
}

/** A signed transaction's id: SHA-512Half of "TXN\0" and its binary, upper-case hex. */
export function xrplTransactionHash(blob: string): string {
  const bytes = Buffer.from(blob, 'hex');
  return Buffer.from(sha512(Buffer.concat([TRANSACTION_ID_PREFIX, bytes])).subarray(0, 32))
    .toString('hex')
    .toUpperCase();
}

function decoded(blob: string): Record<string, unknown> | null {
  if (!/^([0-9A-Fa-f]{2})+$/.test(blob)) return null;
  try {
    return decode(blob) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * Every reason the unsigned binary `blob` is not the refund `expected` (and not the `fields` the
 * plan states beside it): another type, account, destination, tag or amount, an issued amount, a
 * field a refund has no use for (Paths, SendMax...), a flag other than tfFullyCanonicalSig, a fee
 * above the bound, a signature already in it. Empty when it is.
 */
export function xrplRefundRefusals(blob: string, fields: XrplRefundFields, expected: XrplRefundExpected): string[] {
  const tx = decoded(blob);
  if (!tx) return ["the plan's transaction is not an XRP Ledger transaction's binary"];
  const reasons: string[] = [];
  for (const field of Object.keys(tx))
    if (!UNSIGNED_FIELDS.has(field)) reasons.push(`the transaction carries ${field}, which a refund has no use for`);
  if (tx.TransactionType !== 'Payment')
    reasons.push(`the transaction is a ${String(tx.TransactionType)}, not a Payment`);
  if (tx.Account !== expected.account)
    reasons.push(`the transaction pays from ${String(tx.Account)}, not the account ${expected.account}`);
  if (tx.Destination !== expected.destination)
    reasons.push(`the transaction pays ${String(tx.Destination)}, not the claimed account ${expected.destination}`);
  const tag = tx.DestinationTag === undefined ? null : Number(tx.DestinationTag);
  if (tag !== expected.tag)
    reasons.push(`the transaction's destination tag is ${tag ?? 'none'}, not the claimed ${expected.tag ?? 'none'}`);
  if (typeof tx.Amount !== 'string') reasons.push('the transaction pays an issued currency, not XRP');
  else if (tx.Amount !== expected.drops.toString())
    reasons.push(`the transaction pays ${tx.Amount} drops, not the refund's ${expected.drops}`);
  const flags = Number(tx.Flags ?? 0);
  if (flags !== 0 && flags !== TF_FULLY_CANONICAL_SIG)
    reasons.push(`the transaction's flags are ${flags}: only tfFullyCanonicalSig is allowed`);
  const fee = typeof tx.Fee === 'string' && /^\d{1,20}$/.test(tx.Fee) ? BigInt(tx.Fee) : null;
  if (fee === null || fee > expected.maxFee)
    reasons.push(`the transaction's fee ${String(tx.Fee)} drops is above the bound of ${expected.maxFee}`);
  if (tx.SigningPubKey !== undefined && tx.SigningPubKey !== '') reasons.push('the transaction is signed already');
  // The fields the plan states must be those of its binary: a reader of either sees the same refund.
  const stated: Record<string, unknown> = { ...fields };
  for (const field of new Set([...Object.keys(stated), ...Object.keys(tx)]))
    if (field !== 'SigningPubKey' && String(stated[field]) !== String(tx[field]))
      reasons.push(`the plan states ${field} ${String(stated[field])}, its binary ${String(tx[field])}`);
  return reasons;
}

/**
 * A signed refund taken back (`collections/submit`): its fields those of the plan's binary, its
 * public key the plan's `account` (its master key: a regular key or multi-signing is not a refund
 * plan's), its signature valid over its signing data. Answers the blob and its hash;
 * XrplSubmissionRefusal otherwise.
 */
export function checkXrplRefundSubmission(
  planBlob: string,
  account: string,
  signedBlob: string,
): { blob: string; hash: string } {
  const signed = decoded(signedBlob);
  const planned = decoded(planBlob);
  if (!signed || !planned) throw new XrplSubmissionRefusal('the transaction is not an XRP Ledger transaction');
  const { SigningPubKey: publicKey, TxnSignature: signature, ...rest } = signed;
  const { SigningPubKey: _unsigned, ...plan } = planned;
  if (typeof publicKey !== 'string' || typeof signature !== 'string' || !publicKey || !signature)
    throw new XrplSubmissionRefusal('the transaction is not signed');
  if (encode(rest as Parameters<typeof encode>[0]) !== encode(plan as Parameters<typeof encode>[0]))
    throw new XrplSubmissionRefusal("the transaction is not the plan's: its fields differ");
  let signer: string;
  try {
    signer = deriveAddress(publicKey);
  } catch {
    throw new XrplSubmissionRefusal('the transaction is signed by no key');
  }
  if (signer !== account)
    throw new XrplSubmissionRefusal(`the transaction is signed by ${signer}, not the plan's account ${account}`);
  let valid: boolean;
  try {
    valid = verify(
      encodeForSigning({ ...rest, SigningPubKey: publicKey } as Parameters<typeof encode>[0]),
      signature,
      publicKey,
    );
  } catch {
    valid = false;
  }
  if (!valid) throw new XrplSubmissionRefusal("the transaction's signature does not verify");
  const blob = signedBlob.toUpperCase();
  return { blob, hash: xrplTransactionHash(blob) };
}

/** The classic address of a family seed (`s...`, secp256k1 or Ed25519); throws on anything else. */
export function xrplAccountOfSeed(seed: string): string {
  return deriveAddress(deriveKeypair(seed.trim()).publicKey);
}

/** Signs the refund's unsigned binary with the family seed `seed`: the signed binary and its hash. */
export function signXrplRefund(blob: string, seed: string): { blob: string; hash: string } {
  const keys = deriveKeypair(seed.trim());
  const tx = { ...(decode(blob) as Record<string, unknown>), SigningPubKey: keys.publicKey };
  const signature = sign(encodeForSigning(tx as Parameters<typeof encode>[0]), keys.privateKey);
  const signed = encode({ ...tx, TxnSignature: signature } as Parameters<typeof encode>[0]);
  return { blob: signed, hash: xrplTransactionHash(signed) };
}
