/**
 * Every injected EVM wallet of the browser, found the EIP-6963 way: the page dispatches
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

/** The wallet an `eip6963:announceProvider` event's `detail` announces, or null if it is not one. */
export function announcedWallet(detail: unknown): AnnouncedWallet | null {
  if (!isRecord(detail) || !isRecord(detail.info) || !isRecord(detail.provider)) return null;
  const { uuid, name, icon } = detail.info;
  const provider = detail.provider;
  if (typeof uuid !== 'string' || uuid === '' || typeof name !== 'string') return null;
  if (typeof provider.request !== 'function') return null;
  // Control characters (NUL included) would show as nothing or as boxes: a name is plain text.
  const shown = name.replace(/\p{Cc}/gu, '').trim();
  if (shown === '') return null;
  return {
    uuid,
    name: [...shown].slice(0, WALLET_NAME_MAX).join(''),
    icon: typeof icon === 'string' && icon.length <= WALLET_ICON_MAX && IMAGE_DATA_URI.test(icon) ? icon : null,
    provider: provider as unknown as Eip1193Provider,
  };
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
