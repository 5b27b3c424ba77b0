'use client';
/**
 * "Send with wallet" on a ready EVM refund (docs/decisions/098): the merchant's browser wallet (the
 * treasury's account; EIP-6963 wallets that announced themselves, else `window.ethereum`) is asked
 * for the exact transfer of the refund (the server's EIP-681 request, read by lib/pay/wallet-request
 * as the payment page's button reads an order's), by the payment page's own wallet steps
 * (lib/pay/wallet-send, loaded at the press). The transaction id it answers goes into the "Sent by
 * hand" field beside it, and is recorded through the same completion (verified on chain) as soon as
 * the network has it in a block; until then the button asks again every few seconds. Without a
 * wallet, or without JavaScript, nothing is shown: the form beside it stays the way.
 */
import { useRouter } from 'next/navigation';
import { useRef, useState, useSyncExternalStore } from 'react';
import { announcedWallets, subscribeToWallets } from '@/lib/pay/wallet-discovery';
import type { WalletTransaction } from '@/lib/pay/wallet-request';
import type { Eip1193Provider, WalletOutcome } from '@/lib/pay/wallet-send';
import { Button } from '@/components/ui/button';
import type { WalletRefundRecord } from './refund-actions';

const noChanges = () => () => {};
const hasInjectedProvider = () => 'ethereum' in window;
const NONE: readonly never[] = [];
const none = () => NONE;
/** How often, and for how long, a sent transaction is looked for before the merchant is left to press Complete. */
const ASK_EVERY_MS = 3_000;
const ASK_FOR_MS = 10 * 60_000;

const REASONS: Record<Extract<WalletOutcome, { sent: false }>['reason'], string> = {
  refused: 'The request was declined in your wallet. Nothing was sent.',
  'wrong-chain': "Your wallet is on another network: switch it to the refund's and try again.",
  'unknown-chain': "Your wallet does not know the refund's network: add it to your wallet, or send by hand.",
  busy: 'Your wallet already has a request open: finish or close it first.',
  failed: 'Your wallet could not send the transfer. Nothing was sent.',
};

export function RefundWalletButton({
  transaction,
  record,
  txIdField,
}: {
  transaction: WalletTransaction;
  /** The server action that records the transaction id (bound to the order and the refund). */
  record: (txId: string) => Promise<WalletRefundRecord>;
  /** The id of the "Sent by hand" field the transaction id is written into. */
  txIdField: string;
}) {
  const wallets = useSyncExternalStore(subscribeToWallets, announcedWallets, none);
  const injected = useSyncExternalStore(noChanges, hasInjectedProvider, () => false);
  const [status, setStatus] = useState('');
  const underWay = useRef(false);
  const router = useRouter();
  if (wallets.length === 0 && !injected) return null;

  async function send(provider: unknown) {
    if (underWay.current) return;
    if (typeof (provider as Partial<Eip1193Provider> | undefined)?.request !== 'function')
      return setStatus(REASONS.failed);
    underWay.current = true;
    try {
      setStatus('Confirm the transfer in your wallet, from your treasury account.');
      const { sendFromWallet } = await import('@/lib/pay/wallet-send');
      const outcome = await sendFromWallet(provider as Eip1193Provider, transaction);
      if (!outcome.sent) return setStatus(REASONS[outcome.reason]);
      const field = document.getElementById(txIdField);
      if (field instanceof HTMLInputElement) field.value = outcome.txHash;
      setStatus(`Sent from your wallet: ${outcome.txHash}. Waiting for it to be in a block…`);
      const until = Date.now() + ASK_FOR_MS;
      for (;;) {
        const answer = await record(outcome.txHash);
        if (answer.outcome === 'recorded')
          // The page's own notice, as after "Complete": this button leaves with the refund's ready state.
          return router.replace(`${window.location.pathname}?refund=completed`);
        if (answer.outcome === 'refused') return setStatus(answer.message);
        if (Date.now() > until)
          return setStatus(`Not in a block yet: press Complete once it is (its id is filled in): ${outcome.txHash}`);
        await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
      }
    } catch {
      setStatus(REASONS.failed);
    } finally {
      underWay.current = false;
    }
  }

  const choices =
    wallets.length > 0
      ? wallets.map((wallet) => ({ key: wallet.uuid, label: `Send with ${wallet.name}`, provider: wallet.provider }))
      : [{ key: 'injected', label: 'Send with wallet', provider: undefined }];
  return (
    <span className="flex flex-col gap-1">
      <span className="flex flex-wrap gap-2">
        {choices.map((choice) => (
          <Button
            key={choice.key}
            type="button"
            variant="primary"
            onClick={() => void send(choice.provider ?? (window as { ethereum?: unknown }).ethereum)}
          >
            {choice.label}
          </Button>
        ))}
      </span>
      <span role="status" data-testid="refund-wallet-status" className="break-words text-sm">
        {status}
      </span>
    </span>
  );
}
