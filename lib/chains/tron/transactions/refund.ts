/**
 * A Tron refund plan's one transaction (docs/decisions/115), built by the gateway and checked by the
 * signer and by `collections/submit` with the same rules: from the merchant's treasury, TRX to the
 * address the payer confirmed (a TransferContract of the amount), or a TRC-20 token's
 * `transfer(destination, amount)` (a TriggerSmartContract to the token's contract, no TRX with the
 * call) under a fee limit. Its id is sha256 of its raw_data: the gateway knows it before it is
 * signed, and a transaction of that id is this transfer and no other.
 */
import { equalBytes } from '@noble/curves/utils.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { tronAddressBytes, tronAddressOfBytes } from './address';
import { decodeRawData, decodeSignedTransaction, type TronContract, type TronRawData } from './protobuf';
import { signerOf, transactionId } from './signing';
import { transferCallData } from './steps';

/** What the refund's transaction must be, whatever a plan says. */
export interface TronRefundIntent {
  /** The account that sends and pays its fee. */
  treasury: string;
  /** The address the payer confirmed. */
  destination: string;
  /** The TRC-20 contract; null for TRX. */
  token: string | null;
  /** Base units (sun, or the token's). */
  amount: bigint;
}

/** The contract of `intent`'s transaction: the one place its shape is written, for the builder and the checks. */
export function tronRefundContract(intent: TronRefundIntent): TronContract {
  const owner = tronAddressBytes(intent.treasury);
  const to = tronAddressBytes(intent.destination);
  return intent.token === null
    ? { type: 'TransferContract', owner, to, amount: intent.amount }
    : {
        type: 'TriggerSmartContract',
        owner,
        contract: tronAddressBytes(intent.token),
        callValue: 0n,
        data: transferCallData(to, intent.amount),
        callTokenValue: 0n,
        tokenId: 0n,
      };
}

const contractBytes = (c: TronContract): Uint8Array =>
  c.type === 'TransferContract'
    ? new Uint8Array([...c.owner, ...c.to, ...hexToBytes(c.amount.toString(16).padStart(32, '0'))])
    : c.type === 'TriggerSmartContract'
      ? new Uint8Array([...c.owner, ...c.contract, ...c.data])
      : new Uint8Array();

/** Describes a decoded contract in the words of a refund, for a refusal. */
function describe(c: TronContract): string {
  if (c.type === 'TransferContract') return `a transfer of ${c.amount} sun to ${tronAddressOfBytes(c.to)}`;
  if (c.type === 'TriggerSmartContract')
    return `a call of ${tronAddressOfBytes(c.contract)} with ${bytesToHex(c.data)}`;
  return `a ${c.type}`;
}

/**
 * Why `transaction` is not exactly `intent`'s refund (its id sha256 of its raw_data, its contract
 * the intent's byte for byte, no fee limit on TRX, a token's fee limit within `maxFeeLimit`), with
 * the decoded raw data when it decodes. Empty refusals: it is.
 */
export function tronRefundRefusals(
  transaction: { txID: string; rawDataHex: string },
  intent: TronRefundIntent,
  maxFeeLimit: bigint,
): { refusals: string[]; raw: TronRawData | null } {
  let bytes: Uint8Array;
  let raw: TronRawData;
  try {
    bytes = hexToBytes(transaction.rawDataHex);
    raw = decodeRawData(bytes);
  } catch (error) {
    return { refusals: [`the refund's transaction does not decode: ${(error as Error).message}`], raw: null };
  }
  const refusals: string[] = [];
  if (transactionId(bytes) !== transaction.txID.toLowerCase())
    refusals.push(`the transaction's id ${transaction.txID} is not sha256 of its raw_data (${transactionId(bytes)})`);
  const wanted = tronRefundContract(intent);
  const found = raw.contract;
  if (found.type !== wanted.type) refusals.push(`the transaction is ${describe(found)}, not ${describe(wanted)}`);
  else if (!equalBytes(contractBytes(found), contractBytes(wanted)))
    refusals.push(
      `the transaction is ${describe(found)} from ${tronAddressOfBytes(found.owner)}, not ${describe(wanted)} from ${intent.treasury}`,
    );
  else if (found.type === 'TriggerSmartContract' && wanted.type === 'TriggerSmartContract') {
    if (found.callValue !== 0n || found.callTokenValue !== 0n || found.tokenId !== 0n)
      refusals.push('the transaction sends TRX or a TRC-10 token with the call');
  }
  if (found.type === 'TransferContract' && raw.feeLimit !== 0n)
    refusals.push(`the transaction sets a fee limit of ${raw.feeLimit} sun on a TRX transfer`);
  if (raw.feeLimit > maxFeeLimit)
    refusals.push(`the transaction may burn ${raw.feeLimit} sun for energy, above the bound ${maxFeeLimit}`);
  return { refusals, raw };
}

/** A signed transaction that is not the plan's, or not the treasury's: why, for `collections/submit`. */
export class TronSubmissionRefusal extends Error {}

/**
 * Checks a signed Tron transaction (hex, as /wallet/broadcasthex takes it) against a refund plan's:
 * its raw_data the plan's byte for byte, its one signature recovering the treasury's account.
 * Answers its id and the hex to broadcast; throws TronSubmissionRefusal.
 */
export function checkTronRefundSubmission(
  transaction: { txID: string; rawDataHex: string },
  treasury: string,
  signedHex: string,
): { txid: string; hex: string } {
  let signed: { rawData: Uint8Array; signature: Uint8Array };
  try {
    signed = decodeSignedTransaction(hexToBytes(signedHex.toLowerCase()));
  } catch (error) {
    throw new TronSubmissionRefusal(`the transaction is not a signed Tron transaction: ${(error as Error).message}`);
  }
  if (bytesToHex(signed.rawData) !== transaction.rawDataHex.toLowerCase())
    throw new TronSubmissionRefusal("the transaction is not the plan's: its raw_data differs");
  const signer = signerOf(transaction.txID.toLowerCase(), signed.signature);
  if (!signer || tronAddressOfBytes(signer) !== treasury)
    throw new TronSubmissionRefusal(
      `the transaction is signed by ${signer ? tronAddressOfBytes(signer) : 'no key'}, not by the treasury ${treasury}`,
    );
  return { txid: transaction.txID.toLowerCase(), hex: signedHex.toLowerCase() };
}
