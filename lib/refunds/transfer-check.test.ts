import { describe, expect, it } from 'vitest';
import type { ChainTransfer, FoundTransaction } from '../chains';
import { judgeRefundTransaction, owedBy, type RefundOwed } from './transfer-check';

const refund: RefundOwed = {
  address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  tag: '4242',
  currency: 'XRP',
  amount: 2_500_000n,
  feeFromRefund: false,
  decimals: 6,
  nativeCurrency: 'XRP',
};
const transfer = (extra: Partial<ChainTransfer>): ChainTransfer => ({
  txHash: 'E0'.repeat(32),
  outputIndex: 0,
  from: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
  to: refund.address,
  tag: '4242',
  currency: 'XRP',
  amount: 2_500_000n,
  blockHeight: 100,
  seenAt: new Date(0),
  ...extra,
});
const found = (transfers: ChainTransfer[], extra: Partial<FoundTransaction> = {}): FoundTransaction => ({
  transfers,
  confirmations: 1,
  blockHash: null,
  fee: 12n,
  ...extra,
});

describe('a transaction entered to complete a refund', () => {
  it('completes it when it pays the address under the tag at least the amount, with its confirmations', () => {
    expect(judgeRefundTransaction(refund, found([transfer({})], { confirmations: 3, blockHash: 'AB' }))).toEqual({
      ok: true,
      paid: 2_500_000n,
      confirmations: 3,
      blockHash: 'AB',
    });
  });

  it('is refused unknown to the node, each refusal naming what the chain showed', () => {
    expect(judgeRefundTransaction(refund, null)).toMatchObject({ ok: false, problem: 'unknown' });
    expect(judgeRefundTransaction(refund, found([transfer({ to: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' })]))).toEqual({
      ok: false,
      problem: 'address',
      message: "This transaction pays no XRP to the refund's address rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh.",
    });
    expect(judgeRefundTransaction(refund, found([transfer({ tag: '7' })]))).toMatchObject({ problem: 'tag' });
    expect(judgeRefundTransaction(refund, found([transfer({ tag: null })]))).toMatchObject({ problem: 'tag' });
    expect(judgeRefundTransaction(refund, found([transfer({ amount: 2_499_999n })]))).toEqual({
      ok: false,
      problem: 'amount',
      message: "This transaction pays 2.499999 XRP to the refund's address; the refund owes 2.5 XRP.",
    });
  });

  it("counts only the refund's coin: a token of the same amount to the address is no payment of it", () => {
    expect(judgeRefundTransaction(refund, found([transfer({ currency: 'RLUSD' })]))).toMatchObject({
      problem: 'address',
    });
  });

  it('adds up the outputs to the address (a UTXO transaction may pay it twice), without a tag when none was given', () => {
    const utxo = { ...refund, address: 'ltc1qpayer', tag: null, currency: 'LTC', nativeCurrency: 'LTC', decimals: 8 };
    const halves = [
      transfer({ to: 'ltc1qpayer', tag: null, currency: 'LTC', amount: 1_250_000n }),
      transfer({ to: 'ltc1qpayer', tag: null, currency: 'LTC', amount: 1_250_000n, outputIndex: 1 }),
    ];
    expect(judgeRefundTransaction(utxo, found(halves))).toMatchObject({ ok: true, paid: 2_500_000n });
  });

  it('compares addresses without case (an EVM address checksummed or not)', () => {
    const evm = {
      ...refund,
      address: '0x52908400098527886e0f7030069857d2e4169ee7',
      tag: null,
      currency: 'ETH',
      nativeCurrency: 'ETH',
    };
    const paid = transfer({ to: '0x52908400098527886E0F7030069857D2E4169EE7', tag: null, currency: 'ETH' });
    expect(judgeRefundTransaction(evm, found([paid]))).toMatchObject({ ok: true });
  });

  it('owes the amount less the fee the transaction paid when the payer bears it, in the native coin only', () => {
    const bearing = { ...refund, feeFromRefund: true };
    expect(owedBy(bearing, 12n)).toBe(2_499_988n);
    expect(judgeRefundTransaction(bearing, found([transfer({ amount: 2_499_988n })]))).toMatchObject({ ok: true });
    expect(judgeRefundTransaction(bearing, found([transfer({ amount: 2_499_987n })]))).toMatchObject({
      problem: 'amount',
      message: expect.stringContaining('the refund owes 2.499988 XRP (its amount less the fee the payer bears)'),
    });
    // A fee the chain does not tell, or paid in another coin than a token refund's: the whole amount.
    expect(owedBy(bearing, null)).toBe(2_500_000n);
    expect(owedBy({ ...bearing, currency: 'RLUSD' }, 12n)).toBe(2_500_000n);
    expect(owedBy(refund, 12n)).toBe(2_500_000n);
    expect(owedBy(bearing, 9_000_000n)).toBe(1n);
  });
});
