/**
 * Sends a ready Tron refund from the merchant's TronLink (docs/decisions/124): loaded by the order
 * page's "Send with TronLink" only when pressed. TronLink injects `window.tronLink` and its own
 * `tronWeb`; wallets following TIP-1193 inject `window.tron` with `tron.tronWeb`. The steps:
 * 1. connect: `tron_requestAccounts` on TronLink (it answers `{code}`: 200 connected, 4000 a
 *    request already open, 4001 declined; the account is then `tronWeb.defaultAddress.base58`), or
 *    `eth_requestAccounts` on a TIP-1193 provider (the accounts, or an error with code 4001);
 * 2. the account must be a Tron address (a locked or half-connected wallet answers none, or
 *    `false`): nothing is sent otherwise;
 * 3. the wallet's network must be the gateway node's (decision 130): its chain id by TIP-1193's
 *    `eth_chainId` (asked of `window.tron`, then of the wallet connected), else derived from the
 *    block 0 its TronWeb reads (`trx.getBlockByNumber(0)`, an older TronLink). On another chain
 *    nothing is sent; where the wallet or the gateway's node cannot tell, the transfer is sent and
 *    the outcome says the network was not checked;
 * 4. the exact transfer the server computed (lib/refunds `refundTronTransfer`): TRX with
 *    `tronWeb.trx.sendTransaction(to, sun)`, a TRC-20 with `contract().at(token)` then
 *    `transfer(to, amount).send()`. The wallet signs and broadcasts; the page gets the txid.
 * Failures come back as a reason for the button's message, never as a thrown error.
 */
import { TRON_CHAIN_NAMES, tronChainIdFrom, tronChainIdOf } from '@/lib/chains/tron/transactions';
import type { TronWalletTransfer } from '@/lib/refunds/wallet-transfer';

/** The parts of TronWeb (as the wallet injects it) used here. */
interface InjectedTronWeb {
  defaultAddress?: { base58?: unknown };
  trx: {
    sendTransaction(to: string, amount: number): Promise<unknown>;
    getBlockByNumber?(num: number): Promise<unknown>;
  };
  contract(): { at(address: string): Promise<{ transfer(to: string, amount: string): { send(): Promise<unknown> } }> };
}

interface TronProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  tronWeb?: unknown;
}

export type TronLinkOutcome =
  | { sent: true; txHash: string; networkChecked: boolean }
  | { sent: false; reason: 'refused' | 'busy' | 'no-account' | 'failed' }
  /** `expectedNetwork`: the gateway node's, by its name where it is a known one ("Tron mainnet"). */
  | { sent: false; reason: 'other-network'; walletChain: string; expectedNetwork: string };

const USER_REJECTED = 4001;
const REQUEST_PENDING = 4000;
const TXID = /^[0-9a-f]{64}$/i;

/** The wallet present in this page: TronLink's own object, else a TIP-1193 provider. */
function injectedTronWallet(): { provider: TronProvider; tip1193: boolean } | null {
  const w = window as { tronLink?: Partial<TronProvider>; tron?: Partial<TronProvider> };
  if (typeof w.tronLink?.request === 'function') return { provider: w.tronLink as TronProvider, tip1193: false };
  if (typeof w.tron?.request === 'function') return { provider: w.tron as TronProvider, tip1193: true };
  return null;
}

const codeOf = (value: unknown): unknown => (value as { code?: unknown } | null | undefined)?.code;

/** Connects and answers the wallet's account, or why there is none. */
async function connect(
  provider: TronProvider,
  tip1193: boolean,
  tronWeb: InjectedTronWeb | undefined,
): Promise<{ account: unknown } | { reason: 'refused' | 'busy' }> {
  try {
    if (tip1193) {
      const accounts = await provider.request({ method: 'eth_requestAccounts' });
      return { account: Array.isArray(accounts) ? accounts[0] : undefined };
    }
    const answer = await provider.request({ method: 'tron_requestAccounts' });
    if (codeOf(answer) === USER_REJECTED) return { reason: 'refused' };
    if (codeOf(answer) === REQUEST_PENDING) return { reason: 'busy' };
    return { account: tronWeb?.defaultAddress?.base58 };
  } catch (error) {
    return { reason: codeOf(error) === USER_REJECTED ? 'refused' : 'busy' };
  }
}

/**
 * How long the wallet may take to say its network, per question: a wallet that never answers is
 * one that cannot tell, rather than a button left waiting for ever (the transfer itself waits for
 * the merchant's confirmation, for as long as they take).
 */
export const WALLET_CHAIN_ANSWER_MS = 10_000;

/** `answer`, or null once `ms` have passed without one. */
function withinTime<T>(answer: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * The chain id of the wallet's network: `eth_chainId` of each provider in turn (an error, as from
 * a TronLink that knows only its own methods, a surprising answer, or none in time, passes to the
 * next), else the last bytes of the block 0 its TronWeb reads; null when it cannot tell.
 */
async function walletChainId(providers: TronProvider[], tronWeb: InjectedTronWeb | undefined): Promise<string | null> {
  for (const provider of providers) {
    const asked = Promise.resolve().then(() => provider.request({ method: 'eth_chainId' }));
    const chainId = await withinTime(asked, WALLET_CHAIN_ANSWER_MS).then(tronChainIdFrom, () => null);
    if (chainId) return chainId;
  }
  if (typeof tronWeb?.trx.getBlockByNumber !== 'function') return null;
  try {
    const block = await withinTime(tronWeb.trx.getBlockByNumber(0), WALLET_CHAIN_ANSWER_MS);
    const blockId = (block as { blockID?: unknown } | null | undefined)?.blockID;
    return typeof blockId === 'string' ? tronChainIdOf(blockId) : null;
  } catch {
    return null;
  }
}

/** The txid a wallet answered: TronWeb's broadcast answer `{result, txid}`, or the id itself. */
function txidOf(answer: unknown): string | null {
  const txid = typeof answer === 'string' ? answer : (answer as { txid?: unknown } | null | undefined)?.txid;
  return typeof txid === 'string' && TXID.test(txid) ? txid.toLowerCase() : null;
}

/**
 * Asks the wallet for exactly `transfer`, from an account matching `accountPattern` (the Tron
 * address pattern, lib/catalog's): its txid, or why nothing was sent.
 */
export async function sendWithTronLink(transfer: TronWalletTransfer, accountPattern: string): Promise<TronLinkOutcome> {
  const wallet = injectedTronWallet();
  if (!wallet) return { sent: false, reason: 'failed' };
  const tronWeb = (wallet.provider.tronWeb ?? (window as { tronWeb?: unknown }).tronWeb) as InjectedTronWeb | undefined;
  const connected = await connect(wallet.provider, wallet.tip1193, tronWeb);
  if ('reason' in connected) return { sent: false, reason: connected.reason };
  if (typeof connected.account !== 'string' || !new RegExp(accountPattern).test(connected.account))
    return { sent: false, reason: 'no-account' };
  if (!tronWeb) return { sent: false, reason: 'failed' };
  const tip1193 = (window as { tron?: Partial<TronProvider> }).tron;
  const providers = [tip1193, wallet.provider].filter(
    (p, i, all): p is TronProvider => typeof p?.request === 'function' && all.indexOf(p) === i,
  );
  const expected = transfer.chainId;
  const walletChain = expected === null ? null : await walletChainId(providers, tronWeb);
  if (expected !== null && walletChain !== null && walletChain !== expected)
    return {
      sent: false,
      reason: 'other-network',
      walletChain,
      expectedNetwork: TRON_CHAIN_NAMES[expected] ?? `the network of chain ${expected}`,
    };
  const networkChecked = walletChain !== null;
  try {
    let answer: unknown;
    if (transfer.contract === null) {
      const sun = Number(transfer.amount);
      if (!Number.isSafeInteger(sun)) return { sent: false, reason: 'failed' };
      answer = await tronWeb.trx.sendTransaction(transfer.to, sun);
    } else {
      const token = await tronWeb.contract().at(transfer.contract);
      answer = await token.transfer(transfer.to, transfer.amount).send();
    }
    const txHash = txidOf(answer);
    return txHash ? { sent: true, txHash, networkChecked } : { sent: false, reason: 'failed' };
  } catch (error) {
    // TronLink rejects a declined signature with a plain message string, TIP-1193 wallets with code 4001.
    const declined =
      codeOf(error) === USER_REJECTED || (typeof error === 'string' && /declin|reject|cancel/i.test(error));
    return { sent: false, reason: declined ? 'refused' : 'failed' };
  }
}
