'use client';
/**
 * "Send with TronLink" on a ready Tron refund (docs/decisions/124): the merchant's TronLink (or a
 * TIP-1193 wallet, `window.tron`), on the treasury's account, is asked for the exact transfer of the
 * refund the server computed (lib/refunds `refundTronTransfer`) by ./tronlink-send, loaded at the
 * press, on the network of the gateway's node (decision 130). The transaction id it answers is
 * recorded as every wallet button's is (./refund-wallet-recording). Without such a wallet, or without JavaScript, nothing is shown.
 */
import { useSyncExternalStore } from 'react';
import type { TronWalletTransfer } from '@/lib/refunds/wallet-transfer';
import { Button } from '@/components/ui/button';
import type { WalletRefundRecord } from './refund-actions';
import { useWalletRecording, type WalletAnswer } from './refund-wallet-recording';
import type { TronLinkOutcome } from './tronlink-send';

const noChanges = () => () => {};
const hasTronWallet = () => 'tronLink' in window || 'tron' in window;

const REASONS: Record<Exclude<Extract<TronLinkOutcome, { sent: false }>['reason'], 'other-network'>, string> = {
  refused: 'The request was declined in TronLink. Nothing was sent.',
  busy: 'TronLink already has a request open, or is locked: unlock it, finish or close the request, and try again.',
  'no-account': 'TronLink gave no Tron account: unlock it and choose your treasury account. Nothing was sent.',
  failed: 'TronLink could not send the transfer. Nothing was sent.',
};
/** Said beside the transaction when TronLink or the gateway's node could not tell its network (decision 130). */
const NOT_CHECKED =
  "TronLink's network was not checked (it or the gateway's node did not tell it): a transfer on another network is never found here.";

/** The words for an outcome of ./tronlink-send. */
function answerOf(outcome: TronLinkOutcome): WalletAnswer {
  if (outcome.sent) return outcome.networkChecked ? outcome : { ...outcome, note: NOT_CHECKED };
  if (outcome.reason !== 'other-network') return { sent: false, message: REASONS[outcome.reason] };
  return {
    sent: false,
    message: `TronLink is on another network (chain ${outcome.walletChain}): switch it to ${outcome.expectedNetwork} and try again. Nothing was sent.`,
  };
}

export function RefundTronLinkButton({
  transfer,
  accountPattern,
  record,
  txIdField,
}: {
  transfer: TronWalletTransfer;
  /** What a Tron account looks like (lib/catalog's pattern): the wallet's must. */
  accountPattern: string;
  /** The server action that records the transaction id (bound to the order and the refund). */
  record: (txId: string) => Promise<WalletRefundRecord>;
  /** The id of the "Sent by hand" field the transaction id is written into. */
  txIdField: string;
}) {
  const present = useSyncExternalStore(noChanges, hasTronWallet, () => false);
  const { status, sendAndRecord } = useWalletRecording(record, txIdField, REASONS.failed);
  if (!present) return null;

  const send = () =>
    sendAndRecord(async () => {
      const { sendWithTronLink } = await import('./tronlink-send');
      return answerOf(await sendWithTronLink(transfer, accountPattern));
    });

  return (
    <span className="flex flex-col gap-1">
      <Button type="button" variant="primary" onClick={() => void send()}>
        Send with TronLink
      </Button>
      <span role="status" data-testid="refund-wallet-status" className="break-words text-sm">
        {status}
      </span>
    </span>
  );
}
