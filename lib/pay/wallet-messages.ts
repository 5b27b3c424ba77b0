/**
 * The texts of the payment page's "Pay with wallet" button (components/pay/wallet-*.tsx), in the
 * languages of the payment page: English here, with the types; every other language in its own
 * module, lib/pay/languages/<code>.ts, beside its page texts (a language is one file). Kept apart
 * from ./messages so that the button's part can land on its own; the server picks one language
 * and hands its texts to the button as props, so the browser never gets the others.
 *
 * `{network}` and `{chainId}` are filled in on the server (./format interpolate). Every language
 * has every text: lib/pay/i18n.test.ts checks each messages table under lib/pay.
 */

import type { Language } from './i18n';
import { walletMessages as es } from './languages/es';
import { walletMessages as ar } from './languages/ar';
import { walletMessages as pt } from './languages/pt';
import { walletMessages as fr } from './languages/fr';
import { walletMessages as de } from './languages/de';
import { walletMessages as it } from './languages/it';
import { walletMessages as tr } from './languages/tr';
import { walletMessages as ru } from './languages/ru';
import { walletMessages as uk } from './languages/uk';
import { walletMessages as zh } from './languages/zh';
import { walletMessages as ja } from './languages/ja';
import { walletMessages as hi } from './languages/hi';
import { walletMessages as vi } from './languages/vi';
import { walletMessages as id } from './languages/id';
import { walletMessages as ur } from './languages/ur';
import { walletMessages as zhHant } from './languages/zh-Hant';
import { walletMessages as ko } from './languages/ko';

export interface WalletMessages {
  /** The button. */
  payWithWallet: string;
  /** While the wallet shows its prompts. */
  confirmInWallet: string;
  /** After the wallet accepted the transaction; `{tx}` is its id (the punctuation before it is the language's). */
  sent: string;
  /** The shopper declined a request (EIP-1193 error 4001). */
  refused: string;
  /** The wallet is on another chain and did not switch to the order's. */
  wrongChain: string;
  /** The wallet does not know the order's chain (error 4902): it must be added by hand. */
  unknownChain: string;
  /** The wallet already has a request open (error -32002). */
  busy: string;
  /** Anything else: the wallet or the node refused to send. */
  failed: string;
}

const en: WalletMessages = {
  payWithWallet: 'Pay with wallet',
  confirmInWallet: 'Confirm the payment in your wallet.',
  sent: 'Sent from your wallet. This page updates when the network confirms it. Transaction: {tx}',
  refused: 'The request was declined in your wallet. Nothing was sent.',
  wrongChain: 'Your wallet is on another network. Switch it to {network} and try again.',
  unknownChain:
    'Your wallet does not know {network} (chain id {chainId}). Add this network to your wallet, or pay with the QR code or the address.',
  busy: 'Your wallet already has a request open. Open your wallet to finish or close it.',
  failed:
    'Your wallet could not send the payment. Nothing was sent; you can try again or pay with the QR code or the address.',
};

export const WALLET_MESSAGES: Record<Language, WalletMessages> = {
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

/** The texts in `language` (the page's); lib/pay/i18n.test.ts checks every language has them all. */
export function walletMessages(language: Language): WalletMessages {
  return WALLET_MESSAGES[language];
}
