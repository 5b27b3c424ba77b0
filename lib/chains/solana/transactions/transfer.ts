/**
 * The Solana transfer that pays a Solana Pay transfer request (https://docs.solanapay.com/spec),
 * built as the specification asks a wallet to build it; the one builder of the payment page's
 * wallet button (../transfer-request.ts) and of the signer's refunds (docs/decisions/106):
 * - SOL: a System Program transfer of `amount` lamports from the payer to the recipient.
 * - A token (`spl-token`): a TransferChecked of `amount` in the mint's base units, with its
 *   decimals, from the payer's associated token account for the mint to the recipient's, under the
 *   mint's own token program (SPL Token or Token-2022: the associated accounts differ); for a
 *   refund, the recipient's account created first when missing (idempotent), the payer paying its rent.
 * - The `reference` as a read-only, non-signer account key of the transfer instruction, where the
 *   watcher finds it (../transfers), and, when the request has a `memo`, an SPL Memo instruction
 *   just before the transfer.
 * The payer is the fee payer and the only signer; the message is legacy (every wallet takes it),
 * its lifetime the recent blockhash given.
 */
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getUtf8Encoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
  type Transaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';

/** The Token-2022 program: its mints' associated token accounts differ from SPL Token's. */
export const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');

/**
 * The fee of a transaction with one signature and no priority fee, in lamports: what a SOL refund
 * bearing its fee leaves out (docs/decisions/120), which the gateway plans and the signer checks.
 */
export const SIGNATURE_FEE_LAMPORTS = 5_000n;

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

/** What only the network can tell: a recent blockhash, and a token's program and decimals. */
export interface TransferContext {
  blockhash: string;
  lastValidBlockHeight: number;
  token?: { program: Address; decimals: number };
  /**
   * A refund (docs/decisions/106): the payer also creates the recipient's associated token account
   * when it is missing (idempotent, so a transfer to an existing one is unchanged), paying its rent.
   */
  createRecipientAccount?: boolean;
}

const associated = async (owner: Address, mint: Address, tokenProgram: Address) =>
  (await findAssociatedTokenPda({ owner, mint, tokenProgram }))[0];

/** The compiled, unsigned transaction paying `request` from `payer`, the payer its only signer. */
export async function compiledTransfer(
  request: TransferRequest,
  payer: Address,
  context: TransferContext,
): Promise<Transaction> {
  // The payer signs in the wallet: here it is only named (a signer that never signs).
  const authority = createNoopSigner(payer);
  let transfer: Instruction;
  const before: Instruction[] = [];
  if (request.splToken) {
    if (!context.token) throw new Error('a token transfer needs its mint program and decimals');
    const { program, decimals } = context.token;
    const destination = await associated(request.recipient, request.splToken, program);
    if (context.createRecipientAccount)
      before.push(
        getCreateAssociatedTokenIdempotentInstruction({
          payer: authority,
          ata: destination,
          owner: request.recipient,
          mint: request.splToken,
          tokenProgram: program,
        }),
      );
    transfer = getTransferCheckedInstruction(
      {
        source: await associated(payer, request.splToken, program),
        mint: request.splToken,
        destination,
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
    (m) => appendTransactionMessageInstructions([...before, ...memo, transfer], m),
  );
  return compileTransaction(message);
}
