import { describe, expect, it } from 'vitest';
import { NETWORKS, type Network } from '../catalog';
import { paymentUri } from './payment-uri';

const net = (name: string): Network => {
  const found = NETWORKS.find((n) => n.name === name);
  if (!found) throw new Error(`catalog has no ${name}`);
  return found;
};

// Real-format addresses of the public test mnemonic (see derivation.test.ts).
const BTC = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const LTC = 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh';
const DOGE = 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC';
const BCH = 'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6';
const ETH = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const TRX = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const XRP = 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3';
const SOL = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk';
/** A Solana Pay reference: any 32 bytes in base58 (here the System program's all-zero key's neighbour). */
const REFERENCE = '11111111111111111111111111111112';
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('paymentUri: Solana Pay transfer requests', () => {
  it('SOL: recipient, amount in SOL, the reference; no spl-token', () => {
    expect(paymentUri(net('solana'), SOL, REFERENCE, 'SOL', 1_500_000_000n)).toBe(
      `solana:${SOL}?amount=1.5&reference=${REFERENCE}`,
    );
    expect(paymentUri(net('solana'), SOL, REFERENCE, 'SOL', 1n)).toBe(
      `solana:${SOL}?amount=0.000000001&reference=${REFERENCE}`,
    );
  });

  it('USDC: the mint as spl-token; label, message and memo percent-encoded, a space as %20', () => {
    expect(
      paymentUri(net('solana'), SOL, REFERENCE, 'USDC', 12_340_000n, {
        label: 'Shop & Co',
        message: 'Order #7: thanks!',
        memo: 'ord 7',
      }),
    ).toBe(
      `solana:${SOL}?amount=12.34&spl-token=${USDC_MINT}&reference=${REFERENCE}` +
        '&label=Shop%20%26%20Co&message=Order%20%237%3A%20thanks%21&memo=ord%207',
    );
  });

  it('a zero amount is left out (the wallet asks); no reference is refused', () => {
    expect(paymentUri(net('solana'), SOL, REFERENCE, 'SOL', 0n)).toBe(`solana:${SOL}?reference=${REFERENCE}`);
    expect(() => paymentUri(net('solana'), SOL, null, 'SOL', 1n)).toThrow(/reference/);
  });
});

describe('paymentUri: UTXO (BIP21, amount in coins)', () => {
  it('bitcoin', () => {
    expect(paymentUri(net('bitcoin'), BTC, null, 'BTC', 1_500_000n)).toBe(`bitcoin:${BTC}?amount=0.015`);
    expect(paymentUri(net('bitcoin'), BTC, null, 'BTC', 1n)).toBe(`bitcoin:${BTC}?amount=0.00000001`);
    expect(paymentUri(net('bitcoin'), BTC, null, 'btc', 2_100_000_000_000_000n)).toBe(`bitcoin:${BTC}?amount=21000000`);
  });

  it('litecoin and dogecoin', () => {
    expect(paymentUri(net('litecoin'), LTC, null, 'LTC', 25_000_000n)).toBe(`litecoin:${LTC}?amount=0.25`);
    expect(paymentUri(net('dogecoin'), DOGE, null, 'DOGE', 100_000_000_000n)).toBe(`dogecoin:${DOGE}?amount=1000`);
  });

  it('bitcoin cash: the CashAddr prefix is the scheme, not doubled', () => {
    expect(paymentUri(net('bitcoincash'), BCH, null, 'BCH', 12_345_678n)).toBe(
      'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6?amount=0.12345678',
    );
    // A bare CashAddr payload gets the prefix.
    expect(paymentUri(net('bitcoincash'), 'qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6', null, 'BCH', 50_000_000n)).toBe(
      'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6?amount=0.5',
    );
  });

  it('leaves a zero amount out', () => {
    expect(paymentUri(net('bitcoin'), BTC, null, 'BTC', 0n)).toBe(`bitcoin:${BTC}`);
  });
});

describe('paymentUri: EVM (EIP-681)', () => {
  it('native coin: value in wei, integer, no exponent, with the chain id', () => {
    expect(paymentUri(net('ethereum'), ETH, null, 'ETH', 1_500_000_000_000_000_000n)).toBe(
      `ethereum:${ETH}@1?value=1500000000000000000`,
    );
    expect(paymentUri(net('bsc'), ETH, null, 'BNB', 10n ** 30n)).toBe(
      `ethereum:${ETH}@56?value=1000000000000000000000000000000`,
    );
    expect(paymentUri(net('base'), ETH, null, 'ETH', 1n)).toBe(`ethereum:${ETH}@8453?value=1`);
  });

  it('token: transfer on the contract, amount in base units', () => {
    expect(paymentUri(net('polygon'), ETH, null, 'USDT', 10_500_000n)).toBe(
      `ethereum:0xc2132D05D31c914a87C6611C10748AEb04B58e8F@137/transfer?address=${ETH}&uint256=10500000`,
    );
    expect(paymentUri(net('ethereum'), ETH, null, 'usdc', 1_000_000n)).toBe(
      `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${ETH}&uint256=1000000`,
    );
    // BSC USDT has 18 decimals: 10.5 USDT.
    expect(paymentUri(net('bsc'), ETH, null, 'USDT', 10_500_000_000_000_000_000n)).toBe(
      `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${ETH}&uint256=10500000000000000000`,
    );
  });
});

describe('paymentUri: address only', () => {
  it('tron, native and token', () => {
    expect(paymentUri(net('tron'), TRX, null, 'TRX', 5_000_000n)).toBe(TRX);
    expect(paymentUri(net('tron'), TRX, null, 'USDT', 10_500_000n)).toBe(TRX);
  });

  it('ripple: the tag is not in the URI', () => {
    expect(paymentUri(net('ripple'), XRP, '12345', 'XRP', 1_000_000n)).toBe(XRP);
  });
});

describe('paymentUri: refusals', () => {
  it('an unknown currency or a negative amount', () => {
    expect(() => paymentUri(net('ethereum'), ETH, null, 'BTC', 1n)).toThrow(/Unknown currency/);
    expect(() => paymentUri(net('bitcoin'), BTC, null, 'BTC', -1n)).toThrow(/non-negative/);
  });

  it('every catalog currency has a URI', () => {
    for (const network of NETWORKS) {
      for (const currency of network.currencies) {
        const tag = network.paymentReference ? REFERENCE : null;
        expect(paymentUri(network, 'addr', tag, currency.ticker, 1n)).toContain('addr');
      }
    }
  });
});
