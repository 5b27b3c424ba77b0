/**
 * Who sent a Solana payment, read from the balances the chain recorded, never from instruction data:
 * the watcher records it as a transfer's sender (../transfers.ts) and the signer checks a refund to
 * the address the payment came from by it (docs/decisions/126), so both read one rule:
 * for a token, the owner of the mint's account that lost the most; for SOL, the account other than
 * the receiving wallet that lost the most lamports; else the fee payer (the first account).
 */

/** One token account's balance, as getTransaction's `preTokenBalances`/`postTokenBalances` give it. */
export interface SenderTokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string | undefined;
  uiTokenAmount: { amount: string };
}

/** What the rule reads of a transaction: its accounts in index order (static keys, then loaded) and its balances. */
export interface SenderBalances {
  keys: readonly string[];
  preBalances: readonly number[];
  postBalances: readonly number[];
  preTokenBalances: readonly SenderTokenBalance[];
  postTokenBalances: readonly SenderTokenBalance[];
}

const tokenAmount = (balances: readonly SenderTokenBalance[], index: number, mint: string): bigint => {
  const entry = balances.find((b) => b.accountIndex === index && b.mint === mint);
  return entry ? BigInt(entry.uiTokenAmount.amount) : 0n;
};

/** The owner of the `mint` account that lost the most in the transaction, if one did. */
function tokenSender(tx: SenderBalances, mint: string): string | null {
  let sender: string | null = null;
  let most = 0n;
  for (const before of tx.preTokenBalances) {
    if (before.mint !== mint || !before.owner) continue;
    const lost = BigInt(before.uiTokenAmount.amount) - tokenAmount(tx.postTokenBalances, before.accountIndex, mint);
    if (lost > most) [sender, most] = [before.owner, lost];
  }
  return sender;
}

/** The account other than `wallet` whose lamports fell the most, if one did. */
function lamportSender(tx: SenderBalances, wallet: string): string | null {
  let sender: string | null = null;
  let most = 0;
  tx.preBalances.forEach((before, i) => {
    const lost = before - (tx.postBalances[i] ?? before);
    if (tx.keys[i] !== wallet && lost > most) [sender, most] = [tx.keys[i] ?? null, lost];
  });
  return sender;
}

/** The sender of what `tx` paid `wallet`: in `mint`'s tokens, or in SOL when `mint` is null (see the file's comment). */
export function solanaPaymentSender(tx: SenderBalances, wallet: string, mint: string | null): string {
  return (mint === null ? lamportSender(tx, wallet) : tokenSender(tx, mint)) ?? tx.keys[0]!;
}
