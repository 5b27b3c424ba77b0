/**
 * The transaction a browser wallet is asked to sign and send for a Solana order: the exact
 * transfer of the order's Solana Pay transfer request (https://docs.solanapay.com/spec), read
 * from the order's wallet URI (../payment-uri is the one home of what a request holds; this reads
 * what it wrote, so that the wallet button and the QR code can never ask for different payments).
 *
 * The transfer itself is built by ./transactions (`compiledTransfer`), the builder the signer's
 * Solana refunds use too.
 *
 * The payer is the fee payer and the only signer; the message is legacy (every wallet takes it),
 * its lifetime the recent blockhash given. Built on the gateway, not in the browser: the page's
 * code then needs neither this library nor the mint's token program, which only a node can tell.
 * Answers the wire transaction with an empty signature, in base64, for the wallet to sign.
 */
import { address, getBase64EncodedWireTransaction, isAddress, type Address } from '@solana/kit';
import { parseUnits } from '../../money';
import { compiledTransfer, type TransferContext, type TransferRequest } from './transactions';

/**
 * The transfer request of a `solana:` URI, its amount read in the decimals `decimalsOf` gives for
 * its mint (null: SOL), or null when it is not one with an amount (nothing left to pay), a single
 * reference and a known currency.
 */
export function transferRequest(
  uri: string,
  decimalsOf: (mint: string | null) => number | undefined,
): TransferRequest | null {
  const match = /^solana:([1-9A-HJ-NP-Za-km-z]{32,44})\?(.*)$/.exec(uri);
  if (!match || !isAddress(match[1]!)) return null;
  const query = new URLSearchParams(match[2]);
  const mint = query.get('spl-token');
  if (mint !== null && !isAddress(mint)) return null;
  const decimals = decimalsOf(mint);
  if (decimals === undefined) return null;
  const amount = parseUnits(query.get('amount') ?? '', decimals);
  const references = query.getAll('reference');
  if (!amount.ok || amount.value === 0n || references.length !== 1 || !isAddress(references[0]!)) return null;
  const memo = query.get('memo');
  return {
    recipient: address(match[1]!),
    amount: amount.value,
    ...(mint !== null && { splToken: address(mint) }),
    reference: address(references[0]!),
    ...(memo !== null && memo !== '' && { memo }),
  };
}

/** The unsigned wire transaction (base64) paying `request` from `payer`. */
export async function transferTransaction(
  request: TransferRequest,
  payer: Address,
  context: TransferContext,
): Promise<string> {
  return getBase64EncodedWireTransaction(await compiledTransfer(request, payer, context));
}
