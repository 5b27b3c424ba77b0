/**
 * The shape of a Tron refund's transfer as the order page hands it to the browser (docs/decisions/124),
 * kept apart from ./wallet (server-only) so that the client button may name it.
 */
/**
 * What TronLink is asked to send for a Tron refund (decision 124): TRX with
 * `tronWeb.trx.sendTransaction(to, amount)`, or a TRC-20 token's `transfer(to, amount)` on
 * `contract`. Plain strings, for the browser: `amount` in base units (sun for TRX) as decimal digits.
 */
export interface TronWalletTransfer {
  /** The address the payer confirmed. */
  to: string;
  amount: string;
  /** The token's contract as live mode configures it; null for TRX. */
  contract: string | null;
  /**
   * The chain id of the gateway's node ("0x" and 8 hex digits, from its genesis block: decision
   * 130), which the wallet's must be; null when the node did not say.
   */
  chainId: string | null;
}
