/**
 * Pays an EVM order from the shopper's browser wallet through its injected EIP-1193 provider (the
 * one the shopper chose among those that announced themselves, ./wallet-discovery, or
 * `window.ethereum`: MetaMask, Coinbase Wallet, Rabby...). Loaded by the "Pay with wallet" button
 * only when it is pressed (a dynamic import), so none of it weighs on the page's first load.
 *
 * The steps, each a standard request (EIP-1193, EIP-1102, EIP-3326):
 * 1. `eth_requestAccounts`: the shopper connects an account (the wallet asks them).
 * 2. `eth_chainId`; on another chain, `wallet_switchEthereumChain` to the order's, then checked
 *    again: a wallet that says yes but stays elsewhere must not send on the wrong chain. Error 4902
 *    (chain unknown to the wallet) is answered with a message, not `wallet_addEthereumChain`: that
 *    needs an RPC URL and an explorer for the chain, which the catalog does not hold (decision 037).
 * 3. `eth_sendTransaction` with the exact amount of the order's wallet URI (./wallet-request):
 *    the wallet estimates gas and fees and shows the shopper what they sign.
 *
 * Failures come back as a reason for the button's message, never as a thrown error. The button
 * itself holds no logic (the page's first-load budget): payWithWallet checks the provider, guards
 * against a second press while a payment is under way and says every outcome through `say`.
 */
import { interpolate } from './format';
import type { WalletMessages } from './wallet-messages';
import type { WalletTransaction } from './wallet-request';

/** What the server hands the button (components/pay/wallet-pay.tsx): the texts already filled in. */
export interface WalletButtonProps {
  transaction: WalletTransaction;
  m: WalletMessages;
}

/** The part of an EIP-1193 provider used here. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export type WalletOutcome =
  | { sent: true; txHash: string }
  | { sent: false; reason: 'refused' | 'wrong-chain' | 'unknown-chain' | 'busy' | 'failed' };

/** EIP-1193 provider error codes (and JSON-RPC's "request already pending" that MetaMask uses). */
const USER_REJECTED = 4001;
const UNRECOGNIZED_CHAIN = 4902;
const REQUEST_PENDING = -32002;

class Stop extends Error {
  constructor(readonly reason: Exclude<WalletOutcome, { sent: true }>['reason']) {
    super(reason);
  }
}

const codeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

/** The outcome a provider's error stands for at a step whose other failures mean `otherwise`. */
function reasonOf(error: unknown, otherwise: Stop['reason']): Stop['reason'] {
  if (error instanceof Stop) return error.reason;
  const code = codeOf(error);
  if (code === USER_REJECTED) return 'refused';
  if (code === REQUEST_PENDING) return 'busy';
  return otherwise;
}

const sameChain = (a: unknown, b: string) =>
  typeof a === 'string' && /^0x[0-9a-f]+$/i.test(a) && BigInt(a) === BigInt(b);

async function onChain(provider: Eip1193Provider, chainId: string): Promise<void> {
  if (sameChain(await provider.request({ method: 'eth_chainId' }), chainId)) return;
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] });
  } catch (error) {
    // Declining the switch is the shopper's choice of chain, not a refusal to pay: say which chain.
    if (codeOf(error) === UNRECOGNIZED_CHAIN) throw new Stop('unknown-chain');
    if (codeOf(error) === REQUEST_PENDING) throw new Stop('busy');
    throw new Stop('wrong-chain');
  }
  if (!sameChain(await provider.request({ method: 'eth_chainId' }), chainId)) throw new Stop('wrong-chain');
}

export async function sendFromWallet(
  provider: Eip1193Provider,
  transaction: WalletTransaction,
): Promise<WalletOutcome> {
  let from: string;
  try {
    const accounts = await provider.request({ method: 'eth_requestAccounts' });
    const first = Array.isArray(accounts) ? accounts[0] : undefined;
    if (typeof first !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(first)) return { sent: false, reason: 'refused' };
    from = first;
    await onChain(provider, transaction.chainId);
  } catch (error) {
    return { sent: false, reason: reasonOf(error, 'failed') };
  }
  try {
    const { chainId, ...call } = transaction;
    void chainId; // the wallet signs for the chain it is on, checked above
    const txHash = await provider.request({ method: 'eth_sendTransaction', params: [{ from, ...call }] });
    if (typeof txHash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(txHash)) return { sent: false, reason: 'failed' };
    return { sent: true, txHash };
  } catch (error) {
    return { sent: false, reason: reasonOf(error, 'failed') };
  }
}

const REASON_TEXT = {
  refused: 'refused',
  'wrong-chain': 'wrongChain',
  'unknown-chain': 'unknownChain',
  busy: 'busy',
  failed: 'failed',
} as const satisfies Record<Extract<WalletOutcome, { sent: false }>['reason'], keyof WalletMessages>;

let underWay = false;

/**
 * The button's press: the chosen wallet's provider (whatever a page script put there, so checked)
 * asked to pay, every step said through `say`. The transaction id goes where the language's `sent`
 * text puts it (after its own colon: "：" in Chinese and Japanese, with no space), wrapped in
 * Unicode isolates (LRI ... PDI) so that it reads left to right inside a right-to-left sentence.
 */
export async function payWithWallet(
  { transaction, m }: WalletButtonProps,
  provider: unknown,
  say: (text: string) => void,
): Promise<void> {
  if (underWay) return;
  if (typeof (provider as Partial<Eip1193Provider> | undefined)?.request !== 'function') return say(m.failed);
  underWay = true;
  say(m.confirmInWallet);
  try {
    const outcome = await sendFromWallet(provider as Eip1193Provider, transaction);
    say(outcome.sent ? interpolate(m.sent, { tx: `\u2066${outcome.txHash}\u2069` }) : m[REASON_TEXT[outcome.reason]]);
  } finally {
    underWay = false;
  }
}
