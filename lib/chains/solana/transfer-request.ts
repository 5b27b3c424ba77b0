/**
 * The transaction a browser wallet is asked to sign and send for a Solana order: the exact
 * transfer of the order's Solana Pay transfer request (https://docs.solanapay.com/spec), read
 * from the order's wallet URI (../payment-uri is the one home of what a request holds; this reads
 * what it wrote, so that the wallet button and the QR code can never ask for different payments).
 *
 * As the specification asks a wallet to build it:
 * - SOL: a System Program transfer of `amount` lamports from the payer to the recipient.
 * - A token (`spl-token`): a TransferChecked of `amount` in the mint's base units, with its
 *   decimals, from the payer's associated token account for the mint to the recipient's, under the
 *   mint's own token program (SPL Token or Token-2022: the associated accounts differ).
 * - The `reference` as a read-only, non-signer account key of the transfer instruction, where the
 *   watcher finds it (./transfers), and, when the request has a `memo`, an SPL Memo instruction
 *   just before the transfer.
 *
 * The payer is the fee payer and the only signer; the message is legacy (every wallet takes it),
 * its lifetime the recent blockhash given. Built on the gateway, not in the browser: the page's
 * code then needs neither this library nor the mint's token program, which only a node can tell.
 * Answers the wire transaction with an empty signature, in base64, for the wallet to sign.
 */
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getUtf8Encoder,
  isAddress,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getTransferCheckedInstruction } from '@solana-program/token';
import { parseUnits } from '../../money';

/** The SPL Memo program (v2), which wallets use for a Solana Pay `memo`. */
export const MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/** The parts of a transfer request the transaction is built from. */
export interface TransferRequest {
  recipient: Address;
  /** Base units (lamports, or the mint's units). */
  amount: bigint;
  /** The mint of a token payment; absent for SOL. */
  splToken?: Address;
  reference: Address;
  memo?: string;
}

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

/** What only the network can tell: a recent blockhash, and a token's program and decimals. */
export interface TransferContext {
  blockhash: string;
  lastValidBlockHeight: number;
  token?: { program: Address; decimals: number };
}

const associated = async (owner: Address, mint: Address, tokenProgram: Address) =>
  (await findAssociatedTokenPda({ owner, mint, tokenProgram }))[0];

/** The unsigned wire transaction (base64) paying `request` from `payer`. */
export async function transferTransaction(
  request: TransferRequest,
  payer: Address,
  context: TransferContext,
): Promise<string> {
  // The payer signs in the wallet: here it is only named (a signer that never signs).
  const authority = createNoopSigner(payer);
  let transfer: Instruction;
  if (request.splToken) {
    if (!context.token) throw new Error('a token transfer needs its mint program and decimals');
    const { program, decimals } = context.token;
    transfer = getTransferCheckedInstruction(
      {
        source: await associated(payer, request.splToken, program),
        mint: request.splToken,
        destination: await associated(request.recipient, request.splToken, program),
        authority,
        amount: request.amount,
        decimals,
      },
      { programAddress: program },
    );
  } else {
    transfer = getTransferSolInstruction({ source: authority, destination: request.recipient, amount: request.amount });
  }
  transfer = {
    ...transfer,
    accounts: [...(transfer.accounts ?? []), { address: request.reference, role: AccountRole.READONLY }],
  };
  const memo: Instruction[] = request.memo
    ? [{ programAddress: MEMO_PROGRAM_ADDRESS, data: new Uint8Array(getUtf8Encoder().encode(request.memo)) }]
    : [];
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayer(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: context.blockhash as Blockhash,
          lastValidBlockHeight: BigInt(context.lastValidBlockHeight),
        },
        m,
      ),
    (m) => appendTransactionMessageInstructions([...memo, transfer], m),
  );
  return getBase64EncodedWireTransaction(compileTransaction(message));
}
