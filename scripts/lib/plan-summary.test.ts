/**
 * What `npm run collect` prints of a plan: a PSBT or raw plan's inputs and fee, and an EVM or Tron plan's
 * addresses and what its fee payer spends (docs/decisions/093), never a crash on either shape.
 */
import { describe, expect, it } from 'vitest';
import { buildEvmCollectionPlan } from '../../lib/chains/evm/transactions';
import type { CollectionPlan, RawRefundPlan, StoredAccountPlan } from '../../lib/protocol';
import { planSummary } from './plan-summary';

const TOKEN = '0xdac17f958d2ee523a2206206994597c13d831ec7';

describe('planSummary', () => {
  it('summarises an EVM plan by its addresses, transactions and the gas payer’s most', () => {
    const plan = buildEvmCollectionPlan({
      planId: '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4',
      mode: 'live',
      network: { name: 'ethereum', chainId: 1, nativeTicker: 'ETH' },
      tokens: [{ ticker: 'USDT', contract: TOKEN, decimals: 6 }],
      treasury: '0x7e57000000000000000000000000000000c0ffee',
      gasPayer: { address: '0x1111111111111111111111111111111111111111', path: "m/44'/60'/1'/0/0", nonce: 0 },
      deposits: [
        {
          address: '0x0000000000000000000000000000000000000001',
          path: "m/44'/60'/0'/0/1",
          personal: false,
          nonce: 0,
          native: 0n,
          tokens: new Map([[TOKEN, 5n]]),
        },
      ],
      fees: { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n },
      blockGasLimit: 30_000_000n,
      method: 'sweep',
      createdAt: '2026-11-27T12:00:00.000Z',
    })!;
    const stored: StoredAccountPlan = { ...plan, status: 'confirmed', reason: null };
    expect(planSummary(stored)).toBe(
      [
        '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4  confirmed  ethereum live: 1 addresses of USDT',
        `  to ${plan.treasury}: 2 transactions; the gas payer 0x1111111111111111111111111111111111111111 spends at most ${plan.maxGasPayerSpend} wei`,
      ].join('\n'),
    );
  });

  it('summarises a PSBT plan by its outputs and fee', () => {
    const plan = {
      planId: '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4',
      kind: 'collection',
      mode: 'live',
      network: 'litecoin',
      currency: 'LTC',
      status: 'prepared',
      treasury: 'ltc1qtreasury',
      inputs: [{}],
      total: '2',
      fee: '0.00000282',
      feeRate: '2',
      sent: '1.99999718',
      psbt: 'cHNidP8=',
      txid: null,
      reason: null,
    } as unknown as CollectionPlan;
    expect(planSummary(plan)).toBe(
      [
        '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4  prepared  litecoin live: 1 outputs, 2 LTC',
        '  to ltc1qtreasury: 1.99999718 LTC, fee 0.00000282 (2 per vbyte)',
      ].join('\n'),
    );
  });

  it('summarises a raw refund plan (dogecoin) by its refund, change and fee', () => {
    const plan = {
      planId: '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4',
      kind: 'refund',
      format: 'raw',
      mode: 'test',
      network: 'dogecoin',
      currency: 'DOGE',
      status: 'prepared',
      treasury: 'DTreasury',
      inputs: [{}],
      total: '100',
      fee: '0.00226',
      feeRate: '1000',
      sent: '99.99774',
      unsignedTx: '01000000',
      refund: { refundId: '0b6f7d52-1c3e-4a8b-9f10-2d3e4f5a6b7c', pays: '40', destination: 'DPayer' },
      txid: null,
      reason: null,
    } as unknown as RawRefundPlan;
    expect(planSummary(plan)).toBe(
      [
        '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4  prepared  dogecoin test: 1 outputs, 100 DOGE',
        '  refund 0b6f7d52-1c3e-4a8b-9f10-2d3e4f5a6b7c: 40 DOGE to DPayer, the rest to DTreasury; fee 0.00226 (1000 per vbyte)',
      ].join('\n'),
    );
  });
});
