/**
 * Pays a Solana order from the shopper's browser wallet, one that registered itself the Wallet
 * Standard way (./wallet-discovery: Phantom, Solflare, Backpack...). Loaded by the "Pay with
 * wallet" button only when it is pressed (a dynamic import), so none of it weighs on the page's
 * first load. The steps (decision 062):
 *
 * 1. `standard:connect`: the shopper connects an account (the wallet asks them); the first one on
 *    Solana mainnet pays.
 * 2. The gateway builds the exact transfer of the order's transfer request from that account
 *    (`GET /api/pay/{orderId}/solana-transaction?account=`, lib/pay walletSolanaTransaction): the
 *    recent blockhash and the token's program come from the gateway's nodes, whose RPC URL the
 *    page never sees.
 * 3. `solana:signAndSendTransaction`: the wallet shows the shopper what they sign, signs and sends
 *    it through its own node; the signature comes back and is shown as the transaction id.
 *
 * Failures come back as a reason for the button's message, never as a thrown error. The Wallet
 * Standard defines no error codes: wallets that mirror EIP-1193's 4001 for a declined request
 * (Phantom does) get "declined"; anything else is "could not send".
 */
import { base58 } from '@scure/base';
import { interpolate } from './format';
import { SOLANA_CHAIN, type StandardWallet } from './wallet-discovery';
import type { WalletMessages } from './wallet-messages';

/** What the server hands the Solana button (components/pay/wallet-pay.tsx). */
export interface SolanaWalletButtonProps {
  orderId: string;
  m: WalletMessages;
}

export type SolanaWalletOutcome = { sent: true; signature: string } | { sent: false; reason: 'refused' | 'failed' };

const USER_REJECTED = 4001;

interface Account {
  address: string;
}

const isAccount = (value: unknown): value is Account & { chains?: unknown } =>
  typeof value === 'object' && value !== null && typeof (value as Account).address === 'string';

/** The connected account that pays: the first on Solana mainnet (an account that names no chains is taken as the wallet's). */
function payingAccount(connected: unknown): Account | undefined {
  const accounts = (connected as { accounts?: unknown } | null)?.accounts;
  if (!Array.isArray(accounts)) return undefined;
  return accounts.filter(isAccount).find((a) => !Array.isArray(a.chains) || a.chains.includes(SOLANA_CHAIN));
}

const reasonOf = (error: unknown): SolanaWalletOutcome & { sent: false } => ({
  sent: false,
  reason: (error as { code?: unknown } | null)?.code === USER_REJECTED ? 'refused' : 'failed',
});

export async function sendFromSolanaWallet(wallet: StandardWallet, orderId: string): Promise<SolanaWalletOutcome> {
  try {
    const account = payingAccount(await wallet.features['standard:connect'].connect());
    if (!account) return { sent: false, reason: 'refused' };
    const response = await fetch(
      `/api/pay/${encodeURIComponent(orderId)}/solana-transaction?account=${encodeURIComponent(account.address)}`,
      { cache: 'no-store' },
    );
    const body = (await response.json().catch(() => null)) as { transaction?: unknown } | null;
    if (!response.ok || typeof body?.transaction !== 'string') return { sent: false, reason: 'failed' };
    const transaction = Uint8Array.from(atob(body.transaction), (c) => c.charCodeAt(0));
    const [output] = (await wallet.features['solana:signAndSendTransaction'].signAndSendTransaction({
      account,
      chain: SOLANA_CHAIN,
      transaction,
    })) as { signature?: unknown }[];
    const signature = output?.signature;
    if (!(signature instanceof Uint8Array) || signature.length !== 64) return { sent: false, reason: 'failed' };
    return { sent: true, signature: base58.encode(signature) };
  } catch (error) {
    return reasonOf(error);
  }
}

let underWay = false;

/**
 * The button's press with the chosen wallet, every step said through `say`; the signature goes
 * where the language's `sent` text puts it, between Unicode isolates (LRI ... PDI), as on EVM.
 */
export async function payWithSolanaWallet(
  { orderId, m }: SolanaWalletButtonProps,
  wallet: StandardWallet,
  say: (text: string) => void,
): Promise<void> {
  if (underWay) return;
  underWay = true;
  say(m.confirmInWallet);
  try {
    const outcome = await sendFromSolanaWallet(wallet, orderId);
    say(outcome.sent ? interpolate(m.sent, { tx: `\u2066${outcome.signature}\u2069` }) : m[outcome.reason]);
  } finally {
    underWay = false;
  }
}
