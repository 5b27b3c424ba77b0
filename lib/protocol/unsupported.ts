/**
 * Operations of the API we follow that this gateway answers with NOT_SUPPORTED (HTTP 501), each
 * with the reason the caller reads. This is a watch-only gateway: it derives deposit addresses
 * from extended public keys and holds no spending keys, so it cannot send, swap or bridge funds;
 * it has no risk-screening service to ask and no withdrawal destinations to keep. The paths are
 * those the public client libraries call (see docs/api.md, "The operations of the public clients"); see decision 031.
 */

const NO_SPENDING_KEYS = 'this gateway is watch-only: it holds no spending keys, so it cannot move funds';

const WITHDRAWALS = `Withdrawals are not supported: ${NO_SPENDING_KEYS}. Send from the wallet that holds your extended private key.`;
const SWAPS = `Swaps are not supported: ${NO_SPENDING_KEYS}.`;
const BRIDGES = `Cross-chain bridges are not supported: ${NO_SPENDING_KEYS}.`;
const RECURRING = `Recurring payments are not supported: ${NO_SPENDING_KEYS} from a payer's wallet.`;
const KYT = 'Risk screening (KYT) is not supported: this gateway has no screening service to ask.';
const ADDRESS_BOOK = `The address book is not supported: it keeps withdrawal destinations, and ${NO_SPENDING_KEYS}.`;

export const UNSUPPORTED_OPERATIONS: Readonly<Record<string, string>> = {
  'make-withdrawal': WITHDRAWALS,
  'make-withdrawal-async': WITHDRAWALS,
  'withdrawal-fee-token': WITHDRAWALS,
  'get-withdrawal': WITHDRAWALS,
  'orphan-deposits/withdrawal-token': WITHDRAWALS,
  'orphan-deposits/withdrawal': WITHDRAWALS,
  'swaps/create': SWAPS,
  'swaps/fee-token': SWAPS,
  'swaps/get': SWAPS,
  'swaps/limit': SWAPS,
  'auto-swaps/create': SWAPS,
  'auto-swaps/get': SWAPS,
  // The Go client's spelling.
  'auto_swaps/create': SWAPS,
  'auto_swaps/get': SWAPS,
  'bridge/create': BRIDGES,
  'bridge/fee-token': BRIDGES,
  'bridge/get': BRIDGES,
  'bridge/limit': BRIDGES,
  'recurrents/create-subscriber-billing-link': RECURRING,
  'recurrents/get-billing-link': RECURRING,
  'recurrents/get-billing-links-by-subscriber': RECURRING,
  'recurrents/disable-subscriber-billing-link': RECURRING,
  'recurrents/create-subscription': RECURRING,
  'recurrents/get-subscription': RECURRING,
  'recurrents/cancel-subscription': RECURRING,
  'recurrents/make-payment': RECURRING,
  'kyt/check-transfer': KYT,
  'kyt/check-withdrawal-address': KYT,
  'kyt/withdrawal-address-screening': KYT,
  'address-book/add': ADDRESS_BOOK,
  'address-book/get': ADDRESS_BOOK,
  'address-book/update': ADDRESS_BOOK,
  'address-book/remove': ADDRESS_BOOK,
};
