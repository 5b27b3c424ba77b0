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
 * A zero amount is left out of the URI (BIP21 and EIP-681 both allow omitting it).
 */
import { findCurrency, type Network } from '../catalog';
import { formatUnits } from '../money';

const BIP21_SCHEMES: Record<string, string> = {
  bitcoin: 'bitcoin',
  litecoin: 'litecoin',
  dogecoin: 'dogecoin',
  bitcoincash: 'bitcoincash',
};

export function paymentUri(
  network: Network,
  address: string,
  tag: string | null,
  currency: string,
  amount: bigint,
): string {
  void tag; // no supported scheme carries it: the page shows it separately
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
      return address;
  }
  throw new Error(`No payment URI scheme for network "${network.name}" (${String(network.family)})`);
}
