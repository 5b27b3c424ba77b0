'use client';
/**
 * "Send with wallet" on a ready EVM refund (docs/decisions/098): the merchant's browser wallet (the
 * treasury's account; EIP-6963 wallets that announced themselves, else `window.ethereum`) is asked
 * for the exact transfer of the refund (the server's EIP-681 request, read by lib/pay/wallet-request
 * as the payment page's button reads an order's), by the payment page's own wallet steps
 * (lib/pay/wallet-send, loaded at the press). The transaction id it answers is recorded as every
 * wallet button's is (./refund-wallet-recording). Without a
 * wallet, or without JavaScript, nothing is shown: the form beside it stays the way.
 */
import { useSyncExternalStore } from 'react';
import { announcedWallets, subscribeToWallets } from '@/lib/pay/wallet-discovery';
import type { WalletTransaction } from '@/lib/pay/wallet-request';
import type { Eip1193Provider, WalletOutcome } from '@/lib/pay/wallet-send';
import { Button } from '@/components/ui/button';
import type { WalletRefundRecord } from './refund-actions';
import { useWalletRecording } from './refund-wallet-recording';

const noChanges = () => () => {};
const hasInjectedProvider = () => 'ethereum' in window;
const NONE: readonly never[] = [];
const none = () => NONE;

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
  const { status, setStatus, sendAndRecord } = useWalletRecording(record, txIdField, REASONS.failed);
  if (wallets.length === 0 && !injected) return null;

  function send(provider: unknown) {
    if (typeof (provider as Partial<Eip1193Provider> | undefined)?.request !== 'function')
      return setStatus(REASONS.failed);
    return sendAndRecord(async () => {
      const { sendFromWallet } = await import('@/lib/pay/wallet-send');
      const outcome = await sendFromWallet(provider as Eip1193Provider, transaction);
      return outcome.sent ? outcome : { sent: false, message: REASONS[outcome.reason] };
    });
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
