'use client';
/**
 * "Pay with wallet" for an EVM order: shown only when the browser has an injected wallet
 * (`window.ethereum`), so the server renders nothing and a browser without one never sees it.
 * Pressing it loads the wallet code (lib/pay/wallet-send, a dynamic import) and leaves everything
 * to it: the steps, the texts of their outcome (said here in a polite live region) and the guard
 * against a second press. The QR code and the address above stay: the button is a shortcut, never
 * the only way.
 *
 * Kept to the least on purpose: the payment page's first-load JavaScript budget (bench:page) had
 * almost nothing left, so all that can wait for the press is in the lazily loaded chunk.
 */
import { useState, useSyncExternalStore } from 'react';
import type { WalletButtonProps } from '@/lib/pay/wallet-send';
import { BUTTON } from './ui';

const noChanges = () => () => {};
const hasWallet = () => 'ethereum' in window;

export function WalletButton(props: WalletButtonProps) {
  // False on the server and while hydrating, then whether the browser has a wallet.
  const shown = useSyncExternalStore(noChanges, hasWallet, () => false);
  const [status, setStatus] = useState('');
  return (
    shown && (
      <div className="mt-3">
        <button
          type="button"
          onClick={() =>
            void import('@/lib/pay/wallet-send').then(
              (wallet) => wallet.payWithWallet(props, setStatus),
              () => setStatus(props.m.failed),
            )
          }
          className={`${BUTTON} w-full`}
        >
          {props.m.payWithWallet}
        </button>
        <p role="status" data-testid="wallet-status" className="mt-1 break-words text-sm">
          {status}
        </p>
      </div>
    )
  );
}
