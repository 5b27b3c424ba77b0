/**
 * Sends a ready Tron refund from the merchant's TronLink (docs/decisions/124): loaded by the order
 * page's "Send with TronLink" only when pressed. TronLink injects `window.tronLink` and its own
 * `tronWeb`; wallets following TIP-1193 inject `window.tron` with `tron.tronWeb`. The steps:
 * 1. connect: `tron_requestAccounts` on TronLink (it answers `{code}`: 200 connected, 4000 a
 *    request already open, 4001 declined; the account is then `tronWeb.defaultAddress.base58`), or
 *    `eth_requestAccounts` on a TIP-1193 provider (the accounts, or an error with code 4001);
 * 2. the account must be a Tron address (a locked or half-connected wallet answers none, or
 *    `false`): nothing is sent otherwise;
 * 3. the exact transfer the server computed (lib/refunds `refundTronTransfer`): TRX with
 *    `tronWeb.trx.sendTransaction(to, sun)`, a TRC-20 with `contract().at(token)` then
 *    `transfer(to, amount).send()`. The wallet signs and broadcasts; the page gets the txid.
 * Failures come back as a reason for the button's message, never as a thrown error.
 */
import type { TronWalletTransfer } from '@/lib/refunds/wallet-transfer';

/** The parts of TronWeb (as the wallet injects it) used here. */
interface InjectedTronWeb {
  defaultAddress?: { base58?: unknown };
  trx: { sendTransaction(to: string, amount: number): Promise<unknown> };
  contract(): { at(address: string): Promise<{ transfer(to: string, amount: string): { send(): Promise<unknown> } }> };
}

interface TronProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  tronWeb?: unknown;
}

export type TronLinkOutcome =
  { sent: true; txHash: string } | { sent: false; reason: 'refused' | 'busy' | 'no-account' | 'failed' };

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
    return txHash ? { sent: true, txHash } : { sent: false, reason: 'failed' };
  } catch (error) {
    // TronLink rejects a declined signature with a plain message string, TIP-1193 wallets with code 4001.
    const declined =
      codeOf(error) === USER_REJECTED || (typeof error === 'string' && /declin|reject|cancel/i.test(error));
    return { sent: false, reason: declined ? 'refused' : 'failed' };
  }
}
