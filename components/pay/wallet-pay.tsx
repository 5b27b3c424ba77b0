/**
 * The payment page's mount point of "Pay with wallet" (a server component): the button is
 * rendered for an order whose wallet URI is an EIP-681 payment (EVM networks, something left to
 * pay), or a Solana Pay transfer request with an amount (the Wallet Standard wallets' button), and
 * that is not a test-mode order. A test-mode order's address is on the sandbox ledger,
 * but its URI names the real chain id: a wallet would send real coins that never arrive ("Simulate
 * payment" is test mode's way to pay). The texts are chosen here, in the page's language, so the
 * browser gets only those.
 */
import { interpolate, isolate } from '@/lib/pay/format';
import type { Language } from '@/lib/pay/i18n';
import { walletMessages } from '@/lib/pay/wallet-messages';
import { walletTransaction } from '@/lib/pay/wallet-request';
import type { PublicOrderView } from '@/lib/pay/view';
import { SolanaWalletButton, WalletButton } from './wallet-button';

/** A Solana Pay transfer request with an amount: something left to pay (lib/chains/payment-uri). */
const SOLANA_PAYMENT = /^solana:[^?]+\?(?:.*&)?amount=/;

export function WalletPay({ view, language }: { view: PublicOrderView; language: Language }) {
  if (view.test) return null;
  // The transaction itself is built on the gateway at the press (lib/pay/wallet-solana).
  if (view.network === 'solana')
    return SOLANA_PAYMENT.test(view.walletUri) ? (
      <SolanaWalletButton orderId={view.orderId} m={walletMessages(language)} />
    ) : null;
  const transaction = walletTransaction(view.walletUri);
  if (!transaction) return null;
  const m = walletMessages(language);
  const chain = { network: isolate(view.networkName), chainId: isolate(String(BigInt(transaction.chainId))) };
  return (
    <WalletButton
      transaction={transaction}
      m={{ ...m, wrongChain: interpolate(m.wrongChain, chain), unknownChain: interpolate(m.unknownChain, chain) }}
    />
  );
}
