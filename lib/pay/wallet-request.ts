/**
 * The transaction a browser wallet is asked to send for an EVM order, read from the order's wallet
 * URI: the EIP-681 URI of the page's QR code (lib/chains/payment-uri.ts is the one home of chain
 * ids, token contracts and amounts; this reads what it wrote, so the button and the QR code can
 * never ask for different payments). Pure and client-safe.
 *
 * - Native coin, `ethereum:<address>@<chainId>?value=<wei>`: a plain transfer of `value` wei.
 * - Token, `ethereum:<contract>@<chainId>/transfer?address=<address>&uint256=<units>`: a call of
 *   the token contract's `transfer(address,uint256)` (selector 0xa9059cbb, ABI-encoded arguments).
 *
 * Amounts stay integers of base units (bigint) and become hex quantities, as EIP-1193 wallets take
 * them (`eth_sendTransaction`); never a JS number.
 */

/** What `eth_sendTransaction` gets (without `from`, the wallet's account), and the chain to be on. */
export interface WalletTransaction {
  /** EIP-155 chain id as a hex quantity (`0x1`), as `wallet_switchEthereumChain` and `eth_chainId` write it. */
  chainId: string;
  to: string;
  /** Wei as a hex quantity; `0x0` for a token transfer. */
  value: string;
  /** The `transfer(address,uint256)` call data for a token; absent for the native coin. */
  data?: string;
}

const ADDRESS = '0x[0-9a-fA-F]{40}';
const NATIVE = new RegExp(`^ethereum:(${ADDRESS})@([1-9][0-9]{0,15})\\?value=([1-9][0-9]*)$`);
const TOKEN = new RegExp(
  `^ethereum:(${ADDRESS})@([1-9][0-9]{0,15})/transfer\\?address=(${ADDRESS})&uint256=([1-9][0-9]*)$`,
);
/** keccak256("transfer(address,uint256)"), first four bytes. */
const TRANSFER_SELECTOR = '0xa9059cbb';
const UINT256_MAX = 2n ** 256n - 1n;

const quantity = (n: bigint) => `0x${n.toString(16)}`;
const word = (hex: string) => hex.padStart(64, '0');

/**
 * The transaction for a wallet URI, or null when it is not an EIP-681 payment with an amount (a
 * UTXO, Tron or XRP order, or nothing left to pay): the page then shows no wallet button.
 */
export function walletTransaction(walletUri: string): WalletTransaction | null {
  const native = NATIVE.exec(walletUri);
  if (native) {
    const [, to, chainId, wei] = native;
    const value = BigInt(wei!);
    if (value > UINT256_MAX) return null;
    return { chainId: quantity(BigInt(chainId!)), to: to!, value: quantity(value) };
  }
  const token = TOKEN.exec(walletUri);
  if (token) {
    const [, contract, chainId, recipient, units] = token;
    const amount = BigInt(units!);
    if (amount > UINT256_MAX) return null;
    const data = `${TRANSFER_SELECTOR}${word(recipient!.slice(2).toLowerCase())}${word(amount.toString(16))}`;
    return { chainId: quantity(BigInt(chainId!)), to: contract!, value: '0x0', data };
  }
  return null;
}
