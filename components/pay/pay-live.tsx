'use client';
/**
 * The live part of the payment page, its one polling client component. The server page renders
 * the first paint from the same view (no flash) and hands it over with the static payment block
 * (QR codes, address, copy buttons) as `payBlock`, shown while there is something left to pay.
 *
 * A thin parent: it holds the live view and the clock, and composes leaves that each do one
 * thing and read alone: polling (./order-status, with TanStack Query), the countdown
 * (./countdown), the payment block redrawn for a new amount (./pay-block-refresh), the status
 * posted to an embedding parent (./parent-messages), the return to the store (./return-to-store),
 * the announcements (./status-announcer), the transfers (./transfers), test mode's simulated
 * payments (./simulate-payment). An invoice's price line (./invoice-price) is a server-drawn
 * slot too; its "Change coin" link shows while the live view allows it.
 *
 * Kept small on purpose (the page's JavaScript budget): texts come from the server as props in
 * the chosen language, money stays decimal strings, no date or validation library.
 */
import type { ReactNode } from 'react';
import { countdownPhase } from '@/lib/pay/format';
import type { Language } from '@/lib/pay/i18n';
import type { Messages } from '@/lib/pay/messages';
import type { PayerRefundMessages } from '@/lib/pay/payer-refund-messages';
import type { RestMessages } from '@/lib/pay/rest-messages';
import { hasReceipt, type PublicOrderView } from '@/lib/pay/view';
import { useTimeLeft } from './countdown';
import { useOrderStatus } from './order-status';
import { usePostHeightToParent, usePostStatusToParent } from './parent-messages';
import { usePayBlockRefresh } from './pay-block-refresh';
import { PayRefund, type PayerRefundNotice } from './pay-refund';
import { PayRest } from './pay-rest';
import { useReturnRedirect } from './return-to-store';
import { SimulatePayment } from './simulate-payment';
import { StatusAnnouncer } from './status-announcer';
import { StatusPanel, Sums } from './status-panel';
import { OtherTransfers, Payments } from './transfers';

interface Props {
  initial: PublicOrderView;
  m: Messages;
  /** The page's language: amounts and durations are written as it writes them (Intl). */
  language: Language;
  embed: boolean;
  /** For an order of an invoice, its price line (./invoice-price); null otherwise. */
  invoiceLine: ReactNode;
  payBlock: ReactNode;
  /** The link to the receipt (drawn on the server), shown once the order is paid. */
  receiptLink: ReactNode;
  /** The texts of "pay the rest" (./pay-rest) in the page's language. */
  restMessages: RestMessages;
  /** "Pay the rest", the page's server action bound to the order. */
  payTheRest: (form: FormData) => Promise<void>;
  /** The payer's refund choice (./pay-refund): its texts, the page's server action bound to the order, and what a post came to. */
  refundMessages: PayerRefundMessages;
  askForRefund: (form: FormData) => Promise<void>;
  refundNotice: PayerRefundNotice;
}

export function PayLive({
  initial,
  m,
  language,
  embed,
  invoiceLine,
  payBlock,
  receiptLink,
  restMessages,
  payTheRest,
  refundMessages,
  askForRefund,
  refundNotice,
}: Props) {
  const { view, reconnecting, refetch } = useOrderStatus(initial);
  const pending = view.status === 'pending';
  const left = useTimeLeft(view.expiresAt, initial.serverTime, pending);
  const phase = countdownPhase(left);
  const payable = pending && phase !== 'over' && view.remaining !== '0';
  usePayBlockRefresh(payable, view.remaining, initial.remaining);
  usePostStatusToParent(embed, view.orderId, view.status);
  usePostHeightToParent(embed, view.orderId);
  const redirect = useReturnRedirect(view, embed);
  return (
    <>
      {reconnecting && (
        <p role="alert" className="mt-3 rounded-md bg-wait-surface px-3 py-2 text-sm text-wait-ink">
          {m.reconnecting}
        </p>
      )}
      <StatusPanel
        view={view}
        m={m}
        language={language}
        embed={embed}
        left={left}
        phase={phase}
        redirect={redirect}
        payable={payable}
      />
      {hasReceipt(view.screen) && receiptLink}
      <PayRest view={view} m={restMessages} language={language} embed={embed} action={payTheRest} />
      <PayRefund
        view={view}
        m={refundMessages}
        language={language}
        embed={embed}
        notice={refundNotice}
        action={askForRefund}
      />
      <StatusAnnouncer screen={view.screen} redirecting={redirect.redirecting} m={m} />
      {invoiceLine && (
        <div className="group" data-change-coin={view.invoice?.canChangeCoin ? '' : undefined}>
          {invoiceLine}
        </div>
      )}
      {payable && (
        <>
          {payBlock}
          <Sums view={view} m={m} language={language} />
        </>
      )}
      <Payments view={view} m={m} language={language} />
      <OtherTransfers view={view} m={m} language={language} />
      {view.test && pending && <SimulatePayment orderId={view.orderId} m={m} onSent={refetch} canPay={payable} />}
    </>
  );
}
