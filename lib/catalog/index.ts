/**
 * The catalog of networks and currencies the gateway knows. Pure data, safe for the browser.
 * Which of them a mode uses, and with what policy (live configuration, confirmations required),
 * is lib/chains/networks.ts.
 *
 * Network names are the lower-case names merchants send in `network`; tickers are answered
 * upper-case. `decimals` fixes the base unit: amounts are integers of 10^-decimals.
 */

export type ChainFamily = 'utxo' | 'evm' | 'tron' | 'xrpl' | 'solana';

/**
 * Which of a network's chains addresses are written for. The catalog describes mainnets; a live
 * network configured against a test node (`<NETWORK>_CHAIN`, lib/config/chains.ts) carries
 * `testnet` or `regtest`, which changes the UTXO address encoding (tltc1/rltc1, m/n..., bchtest:).
 */
export type AddressChain = 'mainnet' | 'testnet' | 'regtest';

export interface Currency {
  /** Upper-case ticker, e.g. "USDT". */
  ticker: string;
  name: string;
  decimals: number;
  /**
   * Token contract for tokens; undefined for the network's native coin. On the XRP Ledger an
   * issued currency has no contract: this is its issuer's account, and `code` its currency code.
   */
  contract?: string;
  /**
   * XRP Ledger issued currencies only: the currency code that, with the issuer in `contract`, names
   * the token on the ledger (3 characters, or 40 hex digits for longer names;
   * https://xrpl.org/docs/references/protocol/data-types/currency-formats#currency-codes).
   */
  code?: string;
}

export interface Network {
  name: string;
  displayName: string;
  family: ChainFamily;
  /** Default order lifetime in seconds (SPEC "make-order"). */
  defaultLifetime: number;
  /** Confirmations a payment needs before it counts. */
  confirmations: number;
  /** True when deposits are told apart by a destination tag on one shared address. */
  usesTags: boolean;
  /**
   * Set where the tag is a Solana Pay reference (https://docs.solanapay.com/spec#reference), not a
   * destination tag the payer types: a random 32-byte key per payment request that the wallet URI
   * carries into the transaction's account keys. The payer never sees or types it; the watcher
   * matches it as it matches a destination tag (docs/decisions/057).
   */
  paymentReference?: true;
  /**
   * The network's usual time between blocks, in seconds (its target block interval): how long a
   * confirmation takes, for the payment page's estimate of the confirmations still to come.
   */
  blockSeconds: number;
  /** The standard its tokens follow ("ERC-20", "TRC-20"): shown beside a token, so a shopper picks the right one. */
  tokenStandard?: string;
  /** EIP-155 chain id for EVM networks. */
  chainId?: number;
  /**
   * EVM networks: when EIP-7702 (set-code transactions, which EVM collections batch with,
   * docs/decisions/085) went live on the network's mainnet, by which upgrade, and where that is
   * written. Every EVM network of the catalog has it.
   */
  eip7702?: { since: string; upgrade: string; source: string };
  /**
   * EVM networks: the most gas one transaction may carry, where the network caps it below its
   * block gas limit (EIP-7825, 2^24 on Ethereum since Fusaka), with its source beside it. Where
   * absent, no cap was confirmed from the network's own documents (docs/decisions/122): collection
   * plans keep to 2^24 anyway (a smaller transaction is valid everywhere) and to the block gas limit
   * the node answers, whichever is lower.
   */
  txGasCap?: number;
  /** Address encoding; undefined means mainnet (every catalog entry). */
  chain?: AddressChain;
  currencies: Currency[];
}

const usdt = (contract: string, decimals = 6): Currency => ({ ticker: 'USDT', name: 'Tether USD', decimals, contract });
const usdc = (contract: string, decimals = 6): Currency => ({ ticker: 'USDC', name: 'USD Coin', decimals, contract });
// On Solana a token's `contract` is its SPL mint address.
/**
 * Ripple USD on the XRP Ledger, an issued currency of `issuer`. Its code is the nonstandard
 * 160-bit form of "RLUSD" (the ASCII bytes, zero-padded), as a five-letter name must be written.
 * Six decimals: an issued amount is a decimal of up to 15 significant digits, so base units are a
 * choice, not the ledger's; a delivered value with more fractional digits is rounded down
 * (lib/chains/xrpl/issued.ts), never crediting more than arrived.
 */
const rlusd = (issuer: string): Currency => ({
  ticker: 'RLUSD',
  name: 'Ripple USD',
  decimals: 6,
  contract: issuer,
  code: '524C555344000000000000000000000000000000',
});

export const NETWORKS: readonly Network[] = [
  {
    name: 'bitcoin',
    displayName: 'Bitcoin',
    family: 'utxo',
    defaultLifetime: 7200,
    confirmations: 2,
    usesTags: false,
    blockSeconds: 600,
    currencies: [{ ticker: 'BTC', name: 'Bitcoin', decimals: 8 }],
  },
  {
    name: 'litecoin',
    displayName: 'Litecoin',
    family: 'utxo',
    defaultLifetime: 3600,
    confirmations: 6,
    usesTags: false,
    blockSeconds: 150,
    currencies: [{ ticker: 'LTC', name: 'Litecoin', decimals: 8 }],
  },
  {
    name: 'bitcoincash',
    displayName: 'Bitcoin Cash',
    family: 'utxo',
    defaultLifetime: 7200,
    confirmations: 6,
    usesTags: false,
    blockSeconds: 600,
    currencies: [{ ticker: 'BCH', name: 'Bitcoin Cash', decimals: 8 }],
  },
  {
    name: 'dogecoin',
    displayName: 'Dogecoin',
    family: 'utxo',
    defaultLifetime: 1800,
    confirmations: 12,
    usesTags: false,
    blockSeconds: 60,
    currencies: [{ ticker: 'DOGE', name: 'Dogecoin', decimals: 8 }],
  },
  {
    name: 'ethereum',
    displayName: 'Ethereum',
    family: 'evm',
    chainId: 1,
    defaultLifetime: 1800,
    confirmations: 12,
    usesTags: false,
    blockSeconds: 12,
    tokenStandard: 'ERC-20',
    eip7702: {
      since: '2025-05-07',
      upgrade: 'Pectra (Prague), epoch 364032',
      source: 'https://blog.ethereum.org/2025/04/23/pectra-mainnet',
    },
    // EIP-7825, with Fusaka (2025-12-03): https://blog.ethereum.org/2025/11/06/fusaka-mainnet-announcement
    txGasCap: 16_777_216,
    currencies: [
      { ticker: 'ETH', name: 'Ether', decimals: 18 },
      usdt('0xdAC17F958D2ee523a2206206994597C13D831ec7'),
      usdc('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
    ],
  },
  {
    name: 'bsc',
    displayName: 'BNB Smart Chain',
    family: 'evm',
    chainId: 56,
    defaultLifetime: 1800,
    confirmations: 15,
    usesTags: false,
    blockSeconds: 3,
    tokenStandard: 'BEP-20',
    eip7702: {
      since: '2025-03-20',
      upgrade: 'Pascal (BEP-441)',
      // Mainnet 2025-03-20 02:10 UTC; BEP-441 implements EIP-7702.
      source: 'https://docs.bnbchain.org/announce/pascal-bsc',
    },
    // No cap per transaction confirmed: plans keep to 2^24 and the block gas limit.
    currencies: [
      { ticker: 'BNB', name: 'BNB', decimals: 18 },
      usdt('0x55d398326f99059fF775485246999027B3197955', 18),
      usdc('0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18),
    ],
  },
  {
    name: 'polygon',
    displayName: 'Polygon',
    family: 'evm',
    chainId: 137,
    defaultLifetime: 1800,
    confirmations: 64,
    usesTags: false,
    blockSeconds: 2,
    tokenStandard: 'ERC-20',
    // Bhilai brought EIP-7702 to Polygon PoS with Prague's rules: Bor's mainnet configuration sets
    // both BhilaiBlock and PragueBlock to 73,440,256 (docs/decisions/122). The day is a news
    // report's (https://rfq.news/polygon/polygon-pos-activates-bhilai-hardfork-to-push-one-thousand-transactions);
    // the block's own time was not read from here.
    eip7702: {
      since: '2025-07-01',
      upgrade: 'Bhilai hard fork, block 73,440,256',
      source:
        'https://github.com/0xPolygon/bor/blob/18358b909c701d49da62d7c6505de3e162959f67/internal/cli/server/chains/mainnet.go',
    },
    // No cap per transaction confirmed from Polygon's own documents (EIP-8123's text says 32,000,000):
    // plans keep to 2^24 and the block gas limit.
    currencies: [
      { ticker: 'POL', name: 'Polygon Ecosystem Token', decimals: 18 },
      usdt('0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
      usdc('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'),
    ],
  },
  {
    name: 'arbitrum',
    displayName: 'Arbitrum One',
    family: 'evm',
    chainId: 42161,
    defaultLifetime: 1800,
    confirmations: 20,
    usesTags: false,
    blockSeconds: 0.25,
    tokenStandard: 'ERC-20',
    eip7702: {
      since: '2025-06-17',
      upgrade: 'ArbOS 40 Callisto',
      source: 'https://docs.arbitrum.io/run-arbitrum-node/arbos-releases/arbos40',
    },
    // No cap per transaction confirmed from Arbitrum's own documents (EIP-8123's text says
    // 32,000,000): plans keep to 2^24 and the block gas limit.
    currencies: [
      { ticker: 'ETH', name: 'Ether', decimals: 18 },
      usdt('0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9'),
      usdc('0xaf88d065e77c8cC2239327C5EDb3A432268e5831'),
    ],
  },
  {
    name: 'base',
    displayName: 'Base',
    family: 'evm',
    chainId: 8453,
    defaultLifetime: 1800,
    confirmations: 20,
    usesTags: false,
    blockSeconds: 2,
    tokenStandard: 'ERC-20',
    eip7702: {
      since: '2025-05-09',
      upgrade: 'Isthmus (OP Stack), timestamp 1746806401',
      source: 'https://docs.base.org/base-chain/specs/upgrades/isthmus/overview',
    },
    // EIP-7825's cap, adopted with the Azul upgrade: https://docs.base.org/base-chain/specs/upgrades/azul/exec-engine
    txGasCap: 16_777_216,
    currencies: [{ ticker: 'ETH', name: 'Ether', decimals: 18 }, usdc('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')],
  },
  {
    name: 'tron',
    displayName: 'Tron',
    family: 'tron',
    defaultLifetime: 1800,
    confirmations: 19,
    usesTags: false,
    blockSeconds: 3,
    tokenStandard: 'TRC-20',
    // Named as the TRON project names its coin today; "Tronix" was its name as a 2017 ERC-20 token.
    currencies: [{ ticker: 'TRX', name: 'TRON', decimals: 6 }, usdt('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')],
  },
  {
    name: 'ripple',
    displayName: 'XRP Ledger',
    family: 'xrpl',
    defaultLifetime: 1800,
    confirmations: 1,
    usesTags: true,
    blockSeconds: 4,
    currencies: [
      { ticker: 'XRP', name: 'XRP', decimals: 6 },
      // Issuer: https://docs.ripple.com/products/stablecoin/overview/token-addresses ("For XRPL: Issuer address").
      rlusd('rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De'),
    ],
  },
  {
    name: 'solana',
    displayName: 'Solana',
    family: 'solana',
    defaultLifetime: 1800,
    // Only finalized transactions are read (lib/chains/solana): final, one confirmation is enough.
    confirmations: 1,
    usesTags: true,
    paymentReference: true,
    // A slot is 400 ms; finalization takes about 32 of them, which this estimate leaves out.
    blockSeconds: 0.4,
    tokenStandard: 'SPL',
    currencies: [
      { ticker: 'SOL', name: 'Solana', decimals: 9 },
      // Mints: https://developers.circle.com/stablecoins/usdc-contract-addresses (Solana),
      // https://tether.to/en/supported-protocols (Solana); both SPL Token mints with 6 decimals.
      usdt('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'),
      usdc('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'),
    ],
  },
];

const byName = new Map(NETWORKS.map((n) => [n.name, n]));

/**
 * Fiat currencies a price can be given in (invoices, RATE_FIXED, the rate service). Only those
 * every rate source prices (Kraken's EURUSD and GBPUSD markets, Coinbase's and CoinGecko's fiat
 * rates): a currency one source lacks would be priced by fewer sources than the others.
 */
export const FIAT_CURRENCIES: readonly string[] = Object.freeze(['USD', 'EUR', 'GBP']);

export function findNetwork(name: string): Network | undefined {
  return byName.get(name.toLowerCase());
}

export function findCurrency(network: Network, ticker: string): Currency | undefined {
  const upper = ticker.toUpperCase();
  return network.currencies.find((c) => c.ticker === upper);
}

/** Every (currency, network) pair, in catalog order. */
export function currencyPairs(networks: readonly Network[] = NETWORKS): { currency: Currency; network: Network }[] {
  return networks.flatMap((network) => network.currencies.map((currency) => ({ currency, network })));
}

export { addressPatterns, type AddressPatterns } from './address-patterns';
