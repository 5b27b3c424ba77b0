/**
 * Solana's transaction code, client-safe: the transfer builder and the wallet's key of a seed, which
 * `npm run signer` (scripts/signer) imports on the merchant's machine without lib/chains' server side
 * (docs/decisions/106), and the gateway's payment page and test-mode wallets use too.
 */
export { solanaPrivateKeyOfSeed, solanaWalletOfPrivateKey } from './keys';
export {
  compiledTransfer,
  MEMO_PROGRAM_ADDRESS,
  SIGNATURE_FEE_LAMPORTS,
  TOKEN_2022_PROGRAM_ADDRESS,
  type TransferContext,
  type TransferRequest,
} from './transfer';
