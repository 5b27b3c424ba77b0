/**
 * The coins' and networks' icons: the branded SVGs of Web3 Icons (@web3icons/core, MIT licence,
 * https://github.com/0xa3k5/web3icons), one per ticker and network of the catalog, as SVG text.
 * Served as static files by app/icons (one cached file per icon the page shows, never a bundle of
 * all of them) and drawn by components/icons/coin-icon.tsx (the payer's pages and the dashboard).
 * Not in the catalog's index, which the browser imports: the SVG text stays on the server.
 *
 * A chain without an icon of its own in the set (Bitcoin Cash, Dogecoin) shows its coin's; a
 * ticker without one (RLUSD) has none, and the page draws its initial instead.
 */
import coinBTC from '@web3icons/core/svgs/tokens/branded/BTC.svg.js';
import coinLTC from '@web3icons/core/svgs/tokens/branded/LTC.svg.js';
import coinBCH from '@web3icons/core/svgs/tokens/branded/BCH.svg.js';
import coinDOGE from '@web3icons/core/svgs/tokens/branded/DOGE.svg.js';
import coinETH from '@web3icons/core/svgs/tokens/branded/ETH.svg.js';
import coinBNB from '@web3icons/core/svgs/tokens/branded/BNB.svg.js';
import coinPOL from '@web3icons/core/svgs/tokens/branded/POL.svg.js';
import coinUSDT from '@web3icons/core/svgs/tokens/branded/USDT.svg.js';
import coinUSDC from '@web3icons/core/svgs/tokens/branded/USDC.svg.js';
import coinTRX from '@web3icons/core/svgs/tokens/branded/TRX.svg.js';
import coinXRP from '@web3icons/core/svgs/tokens/branded/XRP.svg.js';
import coinSOL from '@web3icons/core/svgs/tokens/branded/SOL.svg.js';
import networkBitcoin from '@web3icons/core/svgs/networks/branded/bitcoin.svg.js';
import networkLitecoin from '@web3icons/core/svgs/networks/branded/litecoin.svg.js';
import networkEthereum from '@web3icons/core/svgs/networks/branded/ethereum.svg.js';
import networkBinanceSmartChain from '@web3icons/core/svgs/networks/branded/binance-smart-chain.svg.js';
import networkPolygon from '@web3icons/core/svgs/networks/branded/polygon.svg.js';
import networkArbitrumOne from '@web3icons/core/svgs/networks/branded/arbitrum-one.svg.js';
import networkBase from '@web3icons/core/svgs/networks/branded/base.svg.js';
import networkTron from '@web3icons/core/svgs/networks/branded/tron.svg.js';
import networkXrp from '@web3icons/core/svgs/networks/branded/xrp.svg.js';
import networkSolana from '@web3icons/core/svgs/networks/branded/solana.svg.js';

/** By upper-case ticker. */
export const COIN_ICONS: Readonly<Record<string, string>> = {
  BTC: coinBTC,
  LTC: coinLTC,
  BCH: coinBCH,
  DOGE: coinDOGE,
  ETH: coinETH,
  BNB: coinBNB,
  POL: coinPOL,
  USDT: coinUSDT,
  USDC: coinUSDC,
  TRX: coinTRX,
  XRP: coinXRP,
  SOL: coinSOL,
};

/** By network name (the catalog's `name`). */
export const NETWORK_ICONS: Readonly<Record<string, string>> = {
  bitcoin: networkBitcoin,
  litecoin: networkLitecoin,
  bitcoincash: coinBCH,
  dogecoin: coinDOGE,
  ethereum: networkEthereum,
  bsc: networkBinanceSmartChain,
  polygon: networkPolygon,
  arbitrum: networkArbitrumOne,
  base: networkBase,
  tron: networkTron,
  ripple: networkXrp,
  solana: networkSolana,
};

export type IconKind = 'coin' | 'network';

/** The icon's URL (app/icons), or null when the set has none for it. */
export function iconUrl(kind: IconKind, name: string): string | null {
  const icons = kind === 'coin' ? COIN_ICONS : NETWORK_ICONS;
  return Object.hasOwn(icons, name) ? `/icons/${kind}/${name}.svg` : null;
}

/** The SVG text of `/icons/{kind}/{file}`, or null. */
export function iconSvg(kind: string, file: string): string | null {
  const name = /^([A-Za-z0-9-]+)\.svg$/.exec(file)?.[1];
  if (!name) return null;
  const icons = kind === 'coin' ? COIN_ICONS : kind === 'network' ? NETWORK_ICONS : null;
  return icons && Object.hasOwn(icons, name) ? icons[name]! : null;
}
