'use client';
/**
 * "Pay with wallet" for an EVM order: one button per injected wallet that announced itself
 * (EIP-6963, lib/pay/wallet-discovery: its name and icon), or, when none did, one button for
 * `window.ethereum` (a wallet too old to announce); a browser without a wallet gets nothing, and
 * the server renders nothing either. Pressing a button loads the wallet code (lib/pay/wallet-send,
 * a dynamic import) and leaves everything to it with that wallet's provider: the steps, the texts
 * of their outcome (said here in a polite live region) and the guard against a second press. The
 * other wallets are never asked anything. The QR code and the address above stay: the button is a
 * shortcut, never the only way.
 *
 * For a Solana order (SolanaWalletButton) the same group lists the wallets that registered
 * themselves the Wallet Standard way and can pay on Solana mainnet, and a press loads
 * lib/pay/wallet-solana-send instead; there is no fallback button (no global Solana provider is
 * standard).
 *
 * Kept to the least on purpose: the payment page's first-load JavaScript budget (bench:page) had
 * almost nothing left, so all that can wait for the press is in the lazily loaded chunk.
 */
import { useId, useState, useSyncExternalStore } from 'react';
import {
  announcedWallets,
  registeredSolanaWallets,
  subscribeToSolanaWallets,
  subscribeToWallets,
} from '@/lib/pay/wallet-discovery';
import type { WalletMessages } from '@/lib/pay/wallet-messages';
import type { WalletButtonProps } from '@/lib/pay/wallet-send';
import type { SolanaWalletButtonProps } from '@/lib/pay/wallet-solana-send';
import { BUTTON } from './ui';

const noChanges = () => () => {};
const hasInjectedProvider = () => 'ethereum' in window;
const NONE: readonly never[] = [];
const none = () => NONE;

export function WalletButton(props: WalletButtonProps) {
  // Empty on the server and while hydrating, then every wallet as it announces itself.
  const wallets = useSyncExternalStore(subscribeToWallets, announcedWallets, none);
  const injected = useSyncExternalStore(noChanges, hasInjectedProvider, () => false);
  const pay = (provider: unknown, say: (text: string) => void) =>
    void import('@/lib/pay/wallet-send').then(
      (wallet) => wallet.payWithWallet(props, provider, say),
      () => say(props.m.failed),
    );
  if (wallets.length === 0 && !injected) return null;
  return (
    <WalletChoice
      m={props.m}
      wallets={wallets.map((wallet) => ({ ...wallet, pay: (say) => pay(wallet.provider, say) }))}
      fallback={wallets.length === 0 ? (say) => pay((window as { ethereum?: unknown }).ethereum, say) : undefined}
    />
  );
}

export function SolanaWalletButton(props: SolanaWalletButtonProps) {
  // Empty on the server and while hydrating, then every wallet as it registers itself.
  const wallets = useSyncExternalStore(subscribeToSolanaWallets, registeredSolanaWallets, none);
  if (wallets.length === 0) return null;
  return (
    <WalletChoice
      m={props.m}
      wallets={wallets.map((wallet) => ({
        ...wallet,
        pay: (say) =>
          void import('@/lib/pay/wallet-solana-send').then(
            (code) => code.payWithSolanaWallet(props, wallet.wallet, say),
            () => say(props.m.failed),
          ),
      }))}
    />
  );
}

interface OfferedWallet {
  uuid: string;
  name: string;
  icon: string | null;
  pay(say: (text: string) => void): void;
}

/** The group of wallet buttons (or the one fallback button) and the live region their outcome is said in. */
function WalletChoice({
  m,
  wallets,
  fallback,
}: {
  m: WalletMessages;
  wallets: OfferedWallet[];
  fallback?: (say: (text: string) => void) => void;
}) {
  const [status, setStatus] = useState('');
  const label = useId();
  return (
    <div className="mt-3">
      {fallback ? (
        <button type="button" onClick={() => fallback(setStatus)} className={`${BUTTON} w-full`}>
          {m.payWithWallet}
        </button>
      ) : (
        <div role="group" aria-labelledby={label}>
          <p id={label} className="text-sm font-medium">
            {m.payWithWallet}
          </p>
          <div className="mt-1 flex flex-wrap gap-2">
            {wallets.map((wallet) => (
              <button
                key={wallet.uuid}
                type="button"
                onClick={() => wallet.pay(setStatus)}
                className={`${BUTTON} flex min-w-0 flex-1 items-center justify-center gap-2`}
              >
                {/* A data: image URI (checked in wallet-discovery), so nothing is fetched. */}
                {wallet.icon && <img src={wallet.icon} alt="" width={24} height={24} className="h-6 w-6 shrink-0" />}
                <bdi className="truncate">{wallet.name}</bdi>
              </button>
            ))}
          </div>
        </div>
      )}
      <p role="status" data-testid="wallet-status" className="mt-1 break-words text-sm">
        {status}
      </p>
    </div>
  );
}
