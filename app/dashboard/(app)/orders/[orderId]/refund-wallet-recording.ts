/**
 * What every "Send with wallet" button of the order page does once the wallet answered (docs/decisions
 * 098, 124): the transaction id goes into the "Sent by hand" field beside it and is recorded through
 * the same completion (verified on chain) as soon as the network has it in a block; until then it is
 * asked again every few seconds. Only the wallet's own steps differ by chain.
 */
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import type { WalletRefundRecord } from './refund-actions';

/** How often, and for how long, a sent transaction is looked for before the merchant is left to press Complete. */
const ASK_EVERY_MS = 3_000;
const ASK_FOR_MS = 10 * 60_000;

/**
 * A wallet's answer: the id of the transaction it sent (with a note to say beside it while it is
 * awaited), or the words saying why nothing was sent.
 */
export type WalletAnswer = { sent: true; txHash: string; note?: string } | { sent: false; message: string };

export function useWalletRecording(
  /** The server action that records the transaction id (bound to the order and the refund). */
  record: (txId: string) => Promise<WalletRefundRecord>,
  /** The id of the "Sent by hand" field the transaction id is written into. */
  txIdField: string,
  /** Said when the wallet throws instead of answering. */
  failed: string,
): {
  status: string;
  setStatus: (status: string) => void;
  sendAndRecord: (send: () => Promise<WalletAnswer>) => Promise<void>;
} {
  const [status, setStatus] = useState('');
  const underWay = useRef(false);
  const router = useRouter();

  async function sendAndRecord(send: () => Promise<WalletAnswer>) {
    if (underWay.current) return;
    underWay.current = true;
    try {
      setStatus('Confirm the transfer in your wallet, from your treasury account.');
      const answer = await send();
      if (!answer.sent) return setStatus(answer.message);
      const field = document.getElementById(txIdField);
      if (field instanceof HTMLInputElement) field.value = answer.txHash;
      const note = answer.note ? ` ${answer.note}` : '';
      setStatus(`Sent from your wallet: ${answer.txHash}. Waiting for it to be in a block…${note}`);
      const until = Date.now() + ASK_FOR_MS;
      for (;;) {
        const recorded = await record(answer.txHash);
        if (recorded.outcome === 'recorded')
          // The page's own notice, as after "Complete": the button leaves with the refund's ready state.
          return router.replace(`${window.location.pathname}?refund=completed`);
        if (recorded.outcome === 'refused') return setStatus(recorded.message);
        if (Date.now() > until)
          return setStatus(
            `Not in a block yet: press Complete once it is (its id is filled in): ${answer.txHash}${note}`,
          );
        await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
      }
    } catch {
      setStatus(failed);
    } finally {
      underWay.current = false;
    }
  }

  return { status, setStatus, sendAndRecord };
}
