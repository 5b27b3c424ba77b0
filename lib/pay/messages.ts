/**
 * The texts of the payment page (MESSAGES) and of the invoice page (INVOICE_MESSAGES), per language. The server page picks one language and passes that
 * one object to the browser as props: no other language reaches the client bundle.
 * Placeholders are `{name}` (see ./format `interpolate`). Amounts, addresses, transaction ids and
 * countdown digits are never translated: they are inserted as they are, left to right.
 */
import type { InvoiceScreen } from '../invoices/view';
import type { Language } from './i18n';
import type { Screen } from './view';
import { messages as ar, invoiceMessages as invoiceAr } from './languages/ar';
import { messages as de, invoiceMessages as invoiceDe } from './languages/de';
import { messages as es, invoiceMessages as invoiceEs } from './languages/es';
import { messages as fr, invoiceMessages as invoiceFr } from './languages/fr';
import { messages as it, invoiceMessages as invoiceIt } from './languages/it';
import { messages as ja, invoiceMessages as invoiceJa } from './languages/ja';
import { messages as pt, invoiceMessages as invoicePt } from './languages/pt';
import { messages as ru, invoiceMessages as invoiceRu } from './languages/ru';
import { messages as tr, invoiceMessages as invoiceTr } from './languages/tr';
import { messages as uk, invoiceMessages as invoiceUk } from './languages/uk';
import { messages as zh, invoiceMessages as invoiceZh } from './languages/zh';
import { messages as hi, invoiceMessages as invoiceHi } from './languages/hi';
import { messages as vi, invoiceMessages as invoiceVi } from './languages/vi';
import { messages as id, invoiceMessages as invoiceId } from './languages/id';
import { messages as ur, invoiceMessages as invoiceUr } from './languages/ur';
import { messages as zhHant, invoiceMessages as invoiceZhHant } from './languages/zh-Hant';
import { messages as ko, invoiceMessages as invoiceKo } from './languages/ko';

/**
 * A text that depends on a count: one form per plural category of the language
 * (Intl.PluralRules: English has one/other, Russian one/few/many/other, Japanese other only).
 * `other` is always there; ./format `plural` picks the form.
 */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export interface Messages {
  /**
   * The punctuation the pages put between parts of a line, each language's own (French puts a
   * no-break space before the colon, Chinese and Japanese a full-width colon and stop): `label`
   * between a label and its value ("Time left: 4:59"), `sentence` after a title read as a sentence
   * before its text (the status announcement), `item` between the items of a line ("1 of 2
   * confirmations · about 3 minutes").
   */
  separators: { label: string; sentence: string; item: string };
  pageTitle: string;
  payTo: string;
  testMode: string;
  testModeNote: string;
  language: string;
  sendExactly: string;
  networkWarning: string;
  amount: string;
  address: string;
  tag: string;
  tagWarningTitle: string;
  tagWarning: string;
  qrChoice: string;
  qrWithAmount: string;
  qrAddressOnly: string;
  qrWithAmountAlt: string;
  qrAddressOnlyAlt: string;
  qrAddressOnlyNote: string;
  openWallet: string;
  copy: string;
  copied: string;
  copyAmount: string;
  copyAddress: string;
  copyTag: string;
  description: string;
  orderTotal: string;
  received: string;
  remaining: string;
  timeLeft: string;
  expiringSoon: string;
  timeUp: string;
  /** "{k} of {n} confirmations", by the plural category of n. */
  confirmations: Plural;
  /** The time the remaining confirmations should take ("{time}" is a duration Intl writes: "about 4 minutes"). */
  confirmationsEta: string;
  /** Instead of the countdown once the payments seen cover the amount. */
  waitingConfirmations: string;
  payments: string;
  transaction: string;
  paymentStatus: Record<'detected' | 'confirmed' | 'reversed' | 'rejected', string>;
  otherTransfers: string;
  otherTransfersNote: string;
  lateLabel: string;
  /** The order's id, which the shopper gives the merchant (the bad-outcome screens). */
  orderReference: string;
  copyReference: string;
  copyTransaction: string;
  contactTitle: string;
  contactNote: string;
  returnToStore: string;
  redirectIn: string;
  stayOnPage: string;
  redirectCancelled: string;
  reconnecting: string;
  simulateTitle: string;
  simulateNote: string;
  simulateFull: string;
  simulatePartial: string;
  simulateOver: string;
  simulateSent: string;
  simulateFailed: string;
  notFoundTitle: string;
  notFoundBody: string;
  /** An invoice's order: the invoice's price beside the coin amount, and the way back to choose another coin. */
  invoicePrice: string;
  changeCoin: string;
  screens: Record<Screen, { title: string; body: string }>;
}

const en: Messages = {
  separators: { label: ': ', sentence: '. ', item: ' · ' },
  pageTitle: 'Pay {merchant}',
  payTo: 'Payment to {merchant}',
  testMode: 'TEST MODE',
  testModeNote: 'This is a test order: no real funds move. Use “Simulate payment” below.',
  language: 'Language',
  sendExactly: 'Send exactly',
  networkWarning: 'Send {currency} on {network} only. Funds sent on another network may be lost.',
  amount: 'Amount',
  address: 'Address',
  tag: 'Destination tag',
  tagWarningTitle: 'The destination tag is required',
  tagWarning: 'Enter this tag in your wallet. Without it your payment cannot be matched to this order and may be lost.',
  qrChoice: 'QR code content',
  qrWithAmount: 'With amount',
  qrAddressOnly: 'Address only',
  qrWithAmountAlt: 'QR code: wallet link for this payment',
  qrAddressOnlyAlt: 'QR code: the address only',
  qrAddressOnlyNote: 'For wallets that cannot read payment links: enter the amount yourself.',
  openWallet: 'Open in wallet',
  copy: 'Copy',
  copied: 'Copied',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  copyTag: 'Copy destination tag',
  description: 'Order',
  orderTotal: 'Order total',
  received: 'Received',
  remaining: 'Remaining',
  timeLeft: 'Time left',
  expiringSoon: 'Expiring soon',
  timeUp: 'Time is up',
  confirmations: { one: '{k} of {n} confirmation', other: '{k} of {n} confirmations' },
  confirmationsEta: 'about {time} to go',
  waitingConfirmations: 'Payment detected, waiting for confirmations',
  payments: 'Payments',
  transaction: 'Transaction',
  paymentStatus: { detected: 'Confirming', confirmed: 'Confirmed', reversed: 'Reversed', rejected: 'Rejected' },
  otherTransfers: 'Other transfers to this address',
  otherTransfersNote: 'These did not count towards the order. Contact the merchant about them.',
  lateLabel: 'after the deadline',
  orderReference: 'Order reference',
  copyReference: 'Copy order reference',
  copyTransaction: 'Copy transaction id',
  contactTitle: 'Contact the merchant',
  contactNote: 'Give them the order reference and the transaction ids below: they identify your payment.',
  returnToStore: 'Return to store',
  redirectIn: 'Returning to the store in {s} s.',
  stayOnPage: 'Stay on this page',
  redirectCancelled: 'You will stay on this page.',
  reconnecting: 'Reconnecting… The status shown may be out of date.',
  simulateTitle: 'Simulate payment',
  simulateNote: 'Test mode only: sends a payment on the sandbox ledger.',
  simulateFull: 'Full',
  simulatePartial: 'Partial',
  simulateOver: 'Over',
  simulateSent: 'Sent: {tx}',
  simulateFailed: 'The simulated payment failed: {error}',
  notFoundTitle: 'Order not found',
  notFoundBody: 'There is no payment order at this link. Check the link the store gave you.',
  invoicePrice: 'Price',
  changeCoin: 'Change coin',
  screens: {
    awaiting: {
      title: 'Awaiting payment',
      body: 'Send the amount below to the address below. This page updates by itself.',
    },
    detected: { title: 'Payment detected', body: 'Your payment is on its way and waiting for network confirmations.' },
    'partially-paid': {
      title: 'Partially paid',
      body: 'Part of the amount has arrived. Send the remaining amount before the time runs out.',
    },
    paid: { title: 'Paid', body: 'Thank you: the payment is complete.' },
    overpaid: {
      title: 'Paid',
      body: 'Thank you: the payment is complete. You sent more than the amount; contact the merchant about the difference.',
    },
    expired: {
      title: 'Expired',
      body: 'The time to pay this order ran out before a payment arrived. Do not send funds to this address any more. Return to the store to order again.',
    },
    underpaid: {
      title: 'Underpaid',
      body: 'The order expired with less than the full amount received, and it can no longer be paid. Contact the merchant to complete the order or get a refund.',
    },
    'paid-late': {
      title: 'Paid late',
      body: 'A payment arrived after the order had expired, so it was not counted. Contact the merchant to complete the order or get a refund.',
    },
    error: {
      title: 'Payment problem',
      body: 'The merchant has to check this payment before the order can complete. Contact the merchant.',
    },
  },
};

export const MESSAGES: Record<Language, Messages> = {
  en,
  es,
  ar,
  pt,
  fr,
  de,
  it,
  tr,
  ru,
  uk,
  zh,
  ja,
  hi,
  vi,
  id,
  ur,
  'zh-Hant': zhHant,
  ko,
};

/**
 * Why a coin choice was refused, as the invoice page's `?error=` says it (app/invoice's action
 * maps each domain error to one): the invoice no longer takes a choice, no fresh price for the
 * coin, a coin the invoice does not offer, the gateway busy (no address free, the database
 * overloaded), a form that names no coin, a new coin after the invoice made its most orders.
 */
export const INVOICE_CHOICE_ERRORS = ['closed', 'rate', 'not-offered', 'busy', 'invalid', 'choices', 'email'] as const;
export type InvoiceChoiceError = (typeof INVOICE_CHOICE_ERRORS)[number];

export function isInvoiceChoiceError(value: unknown): value is InvoiceChoiceError {
  return typeof value === 'string' && (INVOICE_CHOICE_ERRORS as readonly string[]).includes(value);
}

/**
 * The invoice page's texts (`/invoice/{id}`, the coin choice), per language. Apart from the
 * payment page's so that neither page sends the other's texts to the browser; shared words (the
 * countdown, "Return to store", the language links) come from MESSAGES.
 */
export interface InvoiceMessages {
  pageTitle: string;
  testModeNote: string;
  price: string;
  coins: string;
  searchLabel: string;
  searchHint: string;
  searchCount: string;
  searchNone: string;
  priceUnavailable: string;
  chosen: string;
  continueWith: string;
  chosenNote: string;
  chooseAnother: string;
  choosing: string;
  continueToPayment: string;
  paymentDetails: string;
  /** The coin choice's optional e-mail field (docs/decisions/110): its label, and what the address is for. */
  emailLabel: string;
  emailHint: string;
  errors: Record<InvoiceChoiceError, string>;
  notFoundTitle: string;
  notFoundBody: string;
  goBack: string;
  home: string;
  screens: Record<InvoiceScreen, { title: string; body: string }>;
}

const invoiceEn: InvoiceMessages = {
  pageTitle: 'Invoice from {merchant}',
  testModeNote: 'This is a test invoice: no real funds move.',
  price: 'Price',
  coins: 'Coins you can pay with',
  searchLabel: 'Search coins',
  searchHint: 'Ticker, name or network',
  searchCount: 'Coins shown: {shown} of {total}',
  searchNone: 'No coin matches your search.',
  priceUnavailable: 'price unavailable',
  chosen: 'Your current choice: {currency} on {network}.',
  continueWith: 'Continue with {currency} on {network}',
  chosenNote: 'Choosing another coin replaces this payment request: do not send funds to its address after that.',
  chooseAnother: 'Or choose another coin',
  choosing: 'Preparing your payment…',
  continueToPayment: 'Continue to payment',
  paymentDetails: 'See payment details',
  emailLabel: 'E-mail address (optional)',
  emailHint:
    "Where we send this payment's e-mails and, if you send too much or too little, a link to ask for a refund.",
  errors: {
    closed: 'This invoice no longer accepts a coin choice: it is paid, closed or out of time.',
    rate: 'There is no fresh price for that coin right now. Try again in a minute, or choose another coin.',
    'not-offered': 'That coin is not offered for this invoice. Choose one from the list.',
    busy: 'The gateway is busy right now. Try again in a moment.',
    invalid: 'Choose a coin from the list.',
    email: 'That e-mail address is not valid. Correct it, or leave the field empty.',
    choices:
      'You have changed coins as often as this invoice allows. Choose a coin you chose before while its payment request runs, or ask the store for a new invoice.',
  },
  notFoundTitle: 'Invoice not found',
  notFoundBody: 'There is no invoice at this link. Check the link the store gave you.',
  goBack: 'Go back',
  home: 'Go to the home page',
  screens: {
    choose: {
      title: 'Choose how to pay',
      body: 'Pick a coin and its network. The amount to send is fixed when you choose.',
    },
    pay: {
      title: 'Payment in progress',
      body: 'A payment for this invoice has been detected. Follow it on the payment page.',
    },
    paid: { title: 'Paid', body: 'Thank you: this invoice is paid.' },
    expired: {
      title: 'This invoice has expired',
      body: 'Its time to pay ran out. Do not send funds for it; ask the store for a new invoice.',
    },
    closed: {
      title: 'The payment did not complete',
      body: 'This invoice is closed without a complete payment. The payment page shows what was received; contact the merchant.',
    },
  },
};

export const INVOICE_MESSAGES: Record<Language, InvoiceMessages> = {
  en: invoiceEn,
  es: invoiceEs,
  ar: invoiceAr,
  pt: invoicePt,
  fr: invoiceFr,
  de: invoiceDe,
  it: invoiceIt,
  tr: invoiceTr,
  ru: invoiceRu,
  uk: invoiceUk,
  zh: invoiceZh,
  ja: invoiceJa,
  hi: invoiceHi,
  vi: invoiceVi,
  id: invoiceId,
  ur: invoiceUr,
  'zh-Hant': invoiceZhHant,
  ko: invoiceKo,
};
