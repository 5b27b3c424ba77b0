/**
 * The wallet URI a payment page's QR code carries, shared by every chain adapter. Pure: safe for
 * the browser. Amounts are base units in, formatted exactly (never through a JS number).
 *
 * Scheme per family:
 * - utxo: BIP21 `<scheme>:<address>?amount=<decimal coins>` with the scheme bitcoin:, litecoin:,
 *   dogecoin:. Bitcoin Cash addresses are CashAddr and already carry their `bitcoincash:` prefix,
 *   which is the BIP21 scheme: the address is used as is (a bare CashAddr payload gets the prefix).
 * - evm: EIP-681. Native coin: `ethereum:<address>@<chainId>?value=<wei>`, the value an integer
 *   of base units without exponent. Token: `ethereum:<contract>@<chainId>/transfer?address=<address>
 *   &uint256=<base units>`. The chain id is always written so a wallet cannot pay on another chain.
 * - tron: the address alone. TronLink and others have no common amount scheme; a `tron:` URI
 *   would not scan in most wallets, a plain address does everywhere.
 * - xrpl: the address alone. `ripple:`/`xrpl:` URIs with amount and `dt` are not widely supported;
 *   the destination tag is shown (and copied) separately on the page, with its warning.
 * - solana: a Solana Pay transfer request (https://docs.solanapay.com/spec#specification-transfer-request):
 *   `solana:<recipient>?amount=<decimal>&spl-token=<mint>&reference=<reference>&label=...&message=...&memo=...`,
 *   the amount in coins or tokens (never in scientific notation), `spl-token` for a token only, the
 *   order's reference (its tag) always, and `label`, `message` and `memo` when given, percent-encoded.
 *   Wallets show `label` and `message` and keep them off chain; a `memo` is written on chain in clear.
 * A zero amount is left out of the URI (BIP21, EIP-681 and Solana Pay all allow omitting it).
 */
import { findCurrency, type Network } from '../catalog';
import { formatUnits } from '../money';

const BIP21_SCHEMES: Record<string, string> = {
  bitcoin: 'bitcoin',
  litecoin: 'litecoin',
  dogecoin: 'dogecoin',
  bitcoincash: 'bitcoincash',
};

/** What a wallet shows of a request (Solana Pay's `label` and `message`) and a `memo` for the chain; other schemes have none. */
export interface PaymentRequestText {
  label?: string | null;
  message?: string | null;
  memo?: string | null;
}

export function paymentUri(
  network: Network,
  address: string,
  tag: string | null,
  currency: string,
  amount: bigint,
  text: PaymentRequestText = {},
): string {
  const coin = findCurrency(network, currency);
  if (!coin) throw new Error(`Unknown currency "${currency}" on network "${network.name}"`);
  if (typeof amount !== 'bigint' || amount < 0n)
    throw new Error('Payment URI amount must be a non-negative bigint of base units');
  switch (network.family) {
    case 'utxo': {
      const scheme = BIP21_SCHEMES[network.name];
      if (!scheme) throw new Error(`No BIP21 scheme for network "${network.name}"`);
      const base = address.toLowerCase().startsWith(`${scheme}:`) ? address : `${scheme}:${address}`;
      return amount > 0n ? `${base}?amount=${formatUnits(amount, coin.decimals)}` : base;
    }
    case 'evm': {
      if (network.chainId === undefined) throw new Error(`EVM network "${network.name}" has no chain id`);
      if (coin.contract) {
        return `ethereum:${coin.contract}@${network.chainId}/transfer?address=${address}${amount > 0n ? `&uint256=${amount}` : ''}`;
      }
      return `ethereum:${address}@${network.chainId}${amount > 0n ? `?value=${amount}` : ''}`;
    }
    case 'tron':
    case 'xrpl':
      // No supported scheme carries the destination tag: the page shows it separately.
      return address;
    case 'solana': {
      if (tag === null) throw new Error(`a Solana Pay request needs the order's reference`);
      const query = new URLSearchParams();
      if (amount > 0n) query.set('amount', formatUnits(amount, coin.decimals));
      if (coin.contract) query.set('spl-token', coin.contract);
      query.set('reference', tag);
      for (const key of ['label', 'message', 'memo'] as const) if (text[key]) query.set(key, text[key]);
      // URLSearchParams writes a space as "+", which Solana Pay's parsers (URL decoding) read as "+".
      return `solana:${address}?${query.toString().replace(/\+/g, '%20')}`;
    }
  }
  throw new Error(`No payment URI scheme for network "${network.name}" (${String(network.family)})`);
}
