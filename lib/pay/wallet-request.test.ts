import { encodeFunctionData, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { findNetwork, type Network } from '@/lib/catalog';
import { paymentUri } from '@/lib/chains';
import { walletTransaction } from './wallet-request';

const network = (name: string, chainId?: number): Network => ({
  ...findNetwork(name)!,
  ...(chainId ? { chainId } : {}),
});
const ORDER_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

describe('walletTransaction', () => {
  it('a native payment: the exact wei of the QR code URI as a hex quantity, on its chain', () => {
    const uri = paymentUri(network('ethereum'), ORDER_ADDRESS, null, 'ETH', 10_000_000_000_000_001n);
    expect(walletTransaction(uri)).toEqual({ chainId: '0x1', to: ORDER_ADDRESS, value: '0x2386f26fc10001' });
    // A live network on a test node names its own chain id (1337 = 0x539).
    expect(walletTransaction(paymentUri(network('ethereum', 1337), ORDER_ADDRESS, null, 'ETH', 1n))?.chainId).toBe(
      '0x539',
    );
  });

  it('a token payment: transfer(address,uint256) to the contract, encoded as viem encodes it, no value', () => {
    const bsc = network('bsc');
    const usdt = bsc.currencies.find((c) => c.ticker === 'USDT')!;
    // 18 decimals: an amount far beyond 2^53, which a JS number would round.
    const units = 12_345_678_901_234_567_891n;
    const tx = walletTransaction(paymentUri(bsc, ORDER_ADDRESS, null, 'USDT', units))!;
    expect(tx).toMatchObject({ chainId: '0x38', to: usdt.contract, value: '0x0' });
    expect(tx.data).toBe(
      encodeFunctionData({
        abi: parseAbi(['function transfer(address to, uint256 amount)']),
        functionName: 'transfer',
        args: [ORDER_ADDRESS, units],
      }),
    );
  });

  it('no transaction for other schemes, for nothing to pay, or for anything malformed', () => {
    expect(
      walletTransaction(
        paymentUri(network('litecoin'), 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', null, 'LTC', 1n),
      ),
    ).toBeNull();
    expect(walletTransaction('TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf')).toBeNull();
    expect(walletTransaction(paymentUri(network('ethereum'), ORDER_ADDRESS, null, 'ETH', 0n))).toBeNull();
    expect(walletTransaction(`ethereum:${ORDER_ADDRESS}@1?value=1e18`)).toBeNull();
    expect(walletTransaction(`ethereum:${ORDER_ADDRESS}@1?value=10&gas=1`)).toBeNull();
    expect(walletTransaction(`ethereum:${ORDER_ADDRESS}?value=10`)).toBeNull();
    expect(walletTransaction(`ethereum:${ORDER_ADDRESS}@1?value=${2n ** 256n}`)).toBeNull();
    expect(walletTransaction(`ethereum:0x12@1?value=10`)).toBeNull();
  });
});
