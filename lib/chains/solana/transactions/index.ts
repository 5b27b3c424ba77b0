/**
 * Solana's transaction code, client-safe: the transfer builder, the wallet's key of a seed and the
 * rule that names a payment's sender, which `npm run signer` (scripts/signer) imports on the
 * merchant's machine without lib/chains' server side (docs/decisions/106, 126), and the gateway's
 * payment page, test-mode wallets and watcher use too.
 */
export { solanaPrivateKeyOfSeed, solanaWalletOfPrivateKey } from './keys';
export { solanaPaymentSender } from './sender';
export {
  compiledTransfer,
  MEMO_PROGRAM_ADDRESS,
  SIGNATURE_FEE_LAMPORTS,
  TOKEN_2022_PROGRAM_ADDRESS,
  type TransferContext,
  type TransferRequest,
} from './transfer';
