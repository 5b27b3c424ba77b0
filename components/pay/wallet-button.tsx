'use client';
/**
 * "Pay with wallet" for an EVM order: shown only when the browser has an injected EIP-1193
 * provider (`window.ethereum`), so the server renders nothing and a browser without a wallet never
 * sees it. Pressing it loads the wallet code (lib/pay/wallet-send, a dynamic import: none of it is
 * in the page's first load) and asks the wallet to send `transaction`. The QR code and the address
 * above stay: the button is a shortcut, never the only way.
 *
 * Texts come from the server in the page's language (./wallet-pay); the outcome is said in a
 * polite live region, with the transaction id once the wallet has sent it.
 */
import { useEffect, useState } from 'react';
import type { WalletMessages } from '@/lib/pay/wallet-messages';
import type { WalletTransaction } from '@/lib/pay/wallet-request';
import type { Eip1193Provider, WalletOutcome } from '@/lib/pay/wallet-send';
import { BUTTON } from './ui';

type Texts = Pick<WalletMessages, 'payWithWallet' | 'confirmInWallet' | 'sent' | 'refused' | 'wrongChain' | 'unknownChain' | 'busy' | 'failed'>;

const REASON_TEXT = {
  refused: 'refused',
  'wrong-chain': 'wrongChain',
  'unknown-chain': 'unknownChain',
  busy: 'busy',
  failed: 'failed',
} as const satisfies Record<Extract<WalletOutcome, { sent: false }>['reason'], keyof Texts>;

function injectedProvider(): Eip1193Provider | null {
  const candidate = (window as { ethereum?: { request?: unknown } }).ethereum;
  return candidate && typeof candidate.request === 'function' ? (candidate as Eip1193Provider) : null;
}

export function WalletButton({ transaction, m }: { transaction: WalletTransaction; m: Texts }) {
  const [available, setAvailable] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ text: string; txHash?: string } | null>(null);
  useEffect(() => {
    const check = () => setAvailable(injectedProvider() !== null);
    check();
    // Some wallets (MetaMask on mobile) inject after the page has loaded, and say so with this event.
    window.addEventListener('ethereum#initialized', check, { once: true });
    return () => window.removeEventListener('ethereum#initialized', check);
  }, []);
  if (!available) return null;
  const pay = async () => {
    const provider = injectedProvider();
    if (!provider) return;
    setBusy(true);
    setResult({ text: m.confirmInWallet });
    let outcome: WalletOutcome;
    try {
      const { payWithWallet } = await import('@/lib/pay/wallet-send');
      outcome = await payWithWallet(provider, transaction);
    } catch {
      // The chunk did not load (offline, a new deployment): as any other failure to send.
      outcome = { sent: false, reason: 'failed' };
    }
    setResult(outcome.sent ? { text: m.sent, txHash: outcome.txHash } : { text: m[REASON_TEXT[outcome.reason]] });
    setBusy(false);
  };
  return (
    <div className="mt-3">
      <button type="button" disabled={busy} onClick={() => void pay()} className={`${BUTTON} w-full`}>
        {m.payWithWallet}
      </button>
      <p role="status" data-testid="wallet-status" className="mt-1 text-sm">
        {result && result.text}
        {result?.txHash && (
          <>
            {' '}
            <span dir="ltr" translate="no" data-testid="wallet-tx" className="break-all font-mono">
              {result.txHash}
            </span>
          </>
        )}
      </p>
    </div>
  );
}
