/**
 * Every wallet of the browser the payment page can offer, found the way wallets announce
 * themselves: EVM wallets by EIP-6963, Solana wallets by the Wallet Standard (below).
 *
 * EVM wallets are found the EIP-6963 way: the page dispatches
 * `eip6963:requestProvider` on `window` and each wallet answers with an `eip6963:announceProvider`
 * event whose `detail` is `{ info: { uuid, name, icon, rdns }, provider }`; a wallet that loads
 * later announces itself unasked. With several wallets installed, `window.ethereum` is whichever
 * injected itself last, so the shopper could not choose; announced, each is offered by its name.
 *
 * Part of the payment page's first load (the buttons must know which wallets there are before a
 * press), so it is kept small: a hand-written guard rather than zod, whose bytes the page's budget
 * cannot afford (decision 062). The announcement comes from other scripts of the page, an outside
 * input: anything that is not the documented shape is ignored, the name is cut to a length a
 * button can hold, and the icon is kept only when it is a data: URI of an image (the page's CSP
 * allows `img-src data:`; an `<img>` never runs a script, an SVG's included), so an announcement can
 * never make the page fetch a URL.
 */
import type { Eip1193Provider } from './wallet-send';

/** A wallet that announced itself, as the payment page offers it. */
export interface AnnouncedWallet {
  /** EIP-6963's per-session id of the wallet: one button per uuid. */
  uuid: string;
  name: string;
  /** A `data:image/...` URI, or null when the wallet announced none or something else. */
  icon: string | null;
  provider: Eip1193Provider;
}

/** The longest wallet name shown; wallets' names are short, an announcement need not be. */
export const WALLET_NAME_MAX = 40;
/** The largest icon kept (characters of its data: URI); EIP-6963 asks for a 96 px square. */
export const WALLET_ICON_MAX = 100_000;
const IMAGE_DATA_URI = /^data:image\/(?:png|jpeg|gif|webp|svg\+xml)[;,]/i;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A wallet's name as a button shows it, or null when nothing of it can be shown. */
function shownName(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  // Control characters (NUL included) would show as nothing or as boxes: a name is plain text.
  const shown = name.replace(/\p{Cc}/gu, '').trim();
  return shown === '' ? null : [...shown].slice(0, WALLET_NAME_MAX).join('');
}

/** The icon when it is a bounded data: URI of an image, else null (the wallet is offered by its name). */
const shownIcon = (icon: unknown): string | null =>
  typeof icon === 'string' && icon.length <= WALLET_ICON_MAX && IMAGE_DATA_URI.test(icon) ? icon : null;

/** The wallet an `eip6963:announceProvider` event's `detail` announces, or null if it is not one. */
export function announcedWallet(detail: unknown): AnnouncedWallet | null {
  if (!isRecord(detail) || !isRecord(detail.info) || !isRecord(detail.provider)) return null;
  const { uuid, name, icon } = detail.info;
  const provider = detail.provider;
  const shown = shownName(name);
  if (typeof uuid !== 'string' || uuid === '' || shown === null) return null;
  if (typeof provider.request !== 'function') return null;
  return { uuid, name: shown, icon: shownIcon(icon), provider: provider as unknown as Eip1193Provider };
}

let wallets: readonly AnnouncedWallet[] = [];
const listeners = new Set<() => void>();
let asked = false;

function onAnnounce(event: Event): void {
  const wallet = announcedWallet((event as CustomEvent<unknown>).detail);
  // A wallet announces itself again for every request: the first announcement of a uuid stays.
  if (!wallet || wallets.some((known) => known.uuid === wallet.uuid)) return;
  wallets = [...wallets, wallet];
  for (const listener of listeners) listener();
}

/** useSyncExternalStore's subscribe: listens for announcements and, the first time, asks for them. */
export function subscribeToWallets(listener: () => void): () => void {
  listeners.add(listener);
  if (!asked) {
    asked = true;
    window.addEventListener('eip6963:announceProvider', onAnnounce);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
  }
  return () => listeners.delete(listener);
}

/** The wallets announced so far, in the order they announced themselves (the same array until one more does). */
export const announcedWallets = (): readonly AnnouncedWallet[] => wallets;

/*
 * Solana wallets (Phantom, Solflare, Backpack...) are found the Wallet Standard way
 * (https://github.com/wallet-standard/wallet-standard, its `getWallets`): the page listens for
 * `wallet-standard:register-wallet` events, whose `detail` is a callback to call with the page's
 * `{ register }` API, and dispatches one `wallet-standard:app-ready` event whose `detail` is that
 * API, for the wallets that loaded before it (each listens for it). A wallet registers itself:
 * an object with `name`, `icon`, `chains` and `features`. Outside input as an announcement is:
 * checked by the same rules, and offered only when it can pay the order's way (decision 062):
 * Solana mainnet among its chains, `standard:connect` and `solana:signAndSendTransaction`.
 */

/** The Wallet Standard chain of the gateway's live Solana network (its catalog mints are mainnet's). */
export const SOLANA_CHAIN = 'solana:mainnet';

/** The part of a Wallet Standard wallet used to pay (lib/pay/wallet-solana-send). */
export interface StandardWallet {
  features: {
    'standard:connect': { connect(input?: { silent?: boolean }): Promise<unknown> };
    'solana:signAndSendTransaction': { signAndSendTransaction(...inputs: unknown[]): Promise<unknown> };
  };
}

/** A registered Solana wallet as the payment page offers it. */
export interface RegisteredWallet {
  /** The page's own id of the wallet (the standard gives none): one button per wallet object. */
  uuid: string;
  name: string;
  icon: string | null;
  wallet: StandardWallet;
}

const hasMethod = (feature: unknown, method: string) =>
  isRecord(feature) && typeof (feature as Record<string, unknown>)[method] === 'function';

/** The wallet as the page offers it, or null when it is not a Wallet Standard wallet that can pay on Solana mainnet. */
export function registeredWallet(wallet: unknown, uuid: string): RegisteredWallet | null {
  if (!isRecord(wallet) || !isRecord(wallet.features) || !Array.isArray(wallet.chains)) return null;
  const name = shownName(wallet.name);
  if (name === null || !wallet.chains.includes(SOLANA_CHAIN)) return null;
  const { features } = wallet;
  if (!hasMethod(features['standard:connect'], 'connect')) return null;
  if (!hasMethod(features['solana:signAndSendTransaction'], 'signAndSendTransaction')) return null;
  return { uuid, name, icon: shownIcon(wallet.icon), wallet: wallet as unknown as StandardWallet };
}

let solanaWallets: readonly RegisteredWallet[] = [];
const registered = new Set<unknown>();
const solanaListeners = new Set<() => void>();
let ready = false;

/** The page's `register`: each wallet object once; answers the standard's unregister function. */
function register(...found: unknown[]): () => void {
  for (const wallet of found) {
    if (registered.has(wallet)) continue;
    registered.add(wallet);
    let offered: RegisteredWallet | null = null;
    try {
      offered = registeredWallet(wallet, `wallet-standard-${registered.size}`);
    } catch {
      // A wallet object whose getters throw is no wallet the page can use.
    }
    if (offered) solanaWallets = [...solanaWallets, offered];
  }
  for (const listener of solanaListeners) listener();
  return () => {
    for (const wallet of found) registered.delete(wallet);
    solanaWallets = solanaWallets.filter((offered) => !found.includes(offered.wallet));
    for (const listener of solanaListeners) listener();
  };
}

const api = Object.freeze({ register });

function onRegister(event: Event): void {
  const callback = (event as CustomEvent<unknown>).detail;
  if (typeof callback !== 'function') return;
  try {
    callback(api);
  } catch {
    // A wallet's callback that throws registers nothing; the others still do.
  }
}

/** useSyncExternalStore's subscribe for Solana wallets: listens for registrations and, the first time, says the page is ready. */
export function subscribeToSolanaWallets(listener: () => void): () => void {
  solanaListeners.add(listener);
  if (!ready) {
    ready = true;
    window.addEventListener('wallet-standard:register-wallet', onRegister);
    window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }));
  }
  return () => solanaListeners.delete(listener);
}

/** The Solana wallets registered so far, in the order they registered (the same array until one more does). */
export const registeredSolanaWallets = (): readonly RegisteredWallet[] => solanaWallets;
