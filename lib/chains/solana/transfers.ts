/**
 * What a finalized Solana transaction paid the receiving wallet, read the way the chain recorded
 * it, never from instruction data (docs/decisions/057):
 *
 * - Nothing from a transaction whose `meta.err` is set: it failed, and moved nothing but its fee.
 * - SOL: the receiving wallet's lamports after less before (`postBalances` − `preBalances` at its
 *   index), when that grew.
 * - A token: the receiving token account's amount after less before (`postTokenBalances` −
 *   `preTokenBalances`; absent before = 0, as for an account created in the transaction), when
 *   that grew, only where the balance names the configured mint and the wallet as the account's
 *   owner. A Token-2022 mint with a transfer fee therefore credits what arrived, the fee withheld
 *   at the destination left out. A look-alike mint, or another owner, is no payment of ours.
 * - The order's reference: Solana Pay has the wallet add it as a read-only, non-signer account of
 *   the transfer. The tag reported is the first read-only, non-signer account key of the
 *   transaction (static keys, then those loaded from lookup tables) that is no program the
 *   transaction invokes, no well-known program or sysvar, no mint whose balances it lists, and no
 *   owner of a token account it lists (a wallet creating the receiver's token account in the
 *   payment passes the receiver read-only); null when there is none. A transaction carrying several such keys is credited under the first.
 * - `outputIndex` is the receiving account's index among the transaction's accounts, so SOL and
 *   each token of one transaction are distinct transfers, the same at every reading.
 * - The sender: for a token, the owner of the mint's account that lost the most; for SOL, the
 *   account other than the wallet that lost the most lamports; else the fee payer
 *   (./transactions `solanaPaymentSender`, the rule the signer checks a sender refund by).
 */
import type { ChainTransfer } from '../adapter';
import type { TokenBalance, TransactionAnswer } from './answers';
import { solanaPaymentSender } from './transactions';

/** Where payments arrive: the wallet (SOL), and one token account per configured mint. */
export interface ReceivingAccounts {
  wallet: string;
  native: string;
  tokens: readonly { account: string; mint: string; ticker: string }[];
}

/**
 * Programs a payment passes as plain accounts (an associated token account's creation names the
 * System and token programs) or invokes, and that are never a reference. Invoked programs are
 * found in the transaction itself; these are for the ones only passed. Sysvars all start "Sysvar".
 */
const NOT_REFERENCES = new Set([
  '11111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
  'ComputeBudget111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
]);

/** The transaction's accounts in index order (static keys, then loaded writable, then loaded read-only), with their flags. */
function accountsOf(tx: TransactionAnswer): { key: string; signer: boolean; writable: boolean }[] {
  const { accountKeys, header } = tx.transaction.message;
  const signers = header.numRequiredSignatures;
  const writableSigners = signers - header.numReadonlySignedAccounts;
  const writableUnsigned = accountKeys.length - header.numReadonlyUnsignedAccounts;
  return [
    ...accountKeys.map((key, i) => ({
      key,
      signer: i < signers,
      writable: i < signers ? i < writableSigners : i < writableUnsigned,
    })),
    ...tx.meta.loadedAddresses.writable.map((key) => ({ key, signer: false, writable: true })),
    ...tx.meta.loadedAddresses.readonly.map((key) => ({ key, signer: false, writable: false })),
  ];
}

/** The reference the transaction carries (see the file's comment), or null. */
export function referenceOf(tx: TransactionAnswer): string | null {
  const accounts = accountsOf(tx);
  const invoked = new Set<string>();
  for (const ix of [
    ...tx.transaction.message.instructions,
    ...(tx.meta.innerInstructions ?? []).flatMap((inner) => inner.instructions),
  ])
    if (accounts[ix.programIdIndex]) invoked.add(accounts[ix.programIdIndex]!.key);
  const balances = [...tx.meta.preTokenBalances, ...tx.meta.postTokenBalances];
  const mints = new Set(balances.map((b) => b.mint));
  // A wallet whose token account the payment creates is passed read-only: it owns an account listed.
  const owners = new Set(balances.flatMap((b) => (b.owner ? [b.owner] : [])));
  const candidate = accounts.find(
    (a) =>
      !a.signer &&
      !a.writable &&
      !invoked.has(a.key) &&
      !NOT_REFERENCES.has(a.key) &&
      !a.key.startsWith('Sysvar') &&
      !mints.has(a.key) &&
      !owners.has(a.key),
  );
  return candidate?.key ?? null;
}

const tokenAmount = (balances: readonly TokenBalance[], index: number, mint: string): bigint => {
  const entry = balances.find((b) => b.accountIndex === index && b.mint === mint);
  return entry ? BigInt(entry.uiTokenAmount.amount) : 0n;
};

/**
 * The transfers `tx` made to the receiving accounts, in the network's terms. Throws when the
 * answer contradicts itself (balances not one per account): the node is wrong, the step fails.
 */
export function transfersOf(
  tx: TransactionAnswer,
  receiving: ReceivingAccounts,
  at: { slot: number; time: Date },
): ChainTransfer[] {
  if (tx.meta.err !== null && tx.meta.err !== undefined) return [];
  const accounts = accountsOf(tx);
  const keys = accounts.map((a) => a.key);
  if (tx.meta.preBalances.length !== keys.length || tx.meta.postBalances.length !== keys.length)
    throw new Error(`transaction ${tx.transaction.signatures[0]} has balances for other accounts than its keys`);
  const base = {
    txHash: tx.transaction.signatures[0]!,
    tag: referenceOf(tx),
    blockHeight: at.slot,
    seenAt: at.time,
  };
  const balances = { keys, ...tx.meta };
  const transfers: ChainTransfer[] = [];
  const walletIndex = keys.indexOf(receiving.wallet);
  if (walletIndex >= 0) {
    const grew = BigInt(tx.meta.postBalances[walletIndex]!) - BigInt(tx.meta.preBalances[walletIndex]!);
    if (grew > 0n)
      transfers.push({
        ...base,
        outputIndex: walletIndex,
        from: solanaPaymentSender(balances, receiving.wallet, null),
        to: receiving.wallet,
        currency: receiving.native,
        amount: grew,
      });
  }
  for (const token of receiving.tokens) {
    const index = keys.indexOf(token.account);
    if (index < 0) continue;
    const after = tx.meta.postTokenBalances.find((b) => b.accountIndex === index);
    // Another mint, or an account that no longer belongs to the wallet, is none of ours.
    if (!after || after.mint !== token.mint || (after.owner !== undefined && after.owner !== receiving.wallet))
      continue;
    const grew = BigInt(after.uiTokenAmount.amount) - tokenAmount(tx.meta.preTokenBalances, index, token.mint);
    if (grew > 0n)
      transfers.push({
        ...base,
        outputIndex: index,
        from: solanaPaymentSender(balances, receiving.wallet, token.mint),
        to: receiving.wallet,
        currency: token.ticker,
        amount: grew,
      });
  }
  return transfers;
}

/**
 * Every value `tx` moved, to any account, by the same balance rule as `transfersOf`: SOL to each
 * account whose lamports grew, and each configured mint's tokens to the owner of each token account
 * whose amount grew (the wallet that holds it, as a payer names its address). A refund sent by hand
 * is checked with it (ChainAdapter.transaction, docs/decisions/092); nothing from a failed one.
 */
export function transfersToAnyone(
  tx: TransactionAnswer,
  currencies: { native: string; tokens: readonly { mint: string; ticker: string }[] },
  at: { slot: number; time: Date },
): ChainTransfer[] {
  if (tx.meta.err !== null && tx.meta.err !== undefined) return [];
  const keys = accountsOf(tx).map((a) => a.key);
  if (tx.meta.preBalances.length !== keys.length || tx.meta.postBalances.length !== keys.length)
    throw new Error(`transaction ${tx.transaction.signatures[0]} has balances for other accounts than its keys`);
  const base = { txHash: tx.transaction.signatures[0]!, tag: null, blockHeight: at.slot, seenAt: at.time };
  const balances = { keys, ...tx.meta };
  const transfers: ChainTransfer[] = [];
  keys.forEach((key, index) => {
    const grew = BigInt(tx.meta.postBalances[index]!) - BigInt(tx.meta.preBalances[index]!);
    if (grew > 0n)
      transfers.push({
        ...base,
        outputIndex: index,
        from: solanaPaymentSender(balances, key, null),
        to: key,
        currency: currencies.native,
        amount: grew,
      });
  });
  for (const after of tx.meta.postTokenBalances) {
    const token = currencies.tokens.find((t) => t.mint === after.mint);
    if (!token || !after.owner) continue;
    const grew =
      BigInt(after.uiTokenAmount.amount) - tokenAmount(tx.meta.preTokenBalances, after.accountIndex, token.mint);
    if (grew > 0n)
      transfers.push({
        ...base,
        outputIndex: after.accountIndex,
        from: solanaPaymentSender(balances, after.owner, token.mint),
        to: after.owner,
        currency: token.ticker,
        amount: grew,
      });
  }
  return transfers;
}
