/**
 * "Send with wallet" asks for exactly the refund's transfer (docs/decisions/098, 124): the refund's
 * whole amount to the confirmed address, on the chain id and token contract live mode is configured
 * with (on EVM read back by the payment page's own reader, lib/pay/wallet-request; on Tron the
 * transfer TronLink is asked for); and nothing where a browser wallet must not send: test mode, a
 * refund not ready or waiting for approval, another family.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findNetwork } from '../catalog';
import { testAccountXpub } from '../chains/derivation';
import { walletTransaction } from '../pay/wallet-request';
import { forgetProcessSlot } from '../process';
import type { RefundResponse } from '../protocol';
import { refundPayWays } from './pay-ways';
import { refundTronTransfer, refundWalletUri } from './wallet';

const saved = { ...process.env };
const CONTRACT = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const PAYER = '0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0';
/** A TRC-20 contract of this gateway's live configuration (not the catalog's), and a payer's account. */
const TRON_CONTRACT = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const TRON_PAYER = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
/** Tron mainnet's chain id, as the gateway's node would give it (decision 130). */
const MAINNET = '0x2b6653dc';

function environment(env: Record<string, string>): void {
  process.env = { ...saved, ...env };
  forgetProcessSlot('config');
  forgetProcessSlot('liveNetworks');
}

const refund = (fields: Partial<RefundResponse> = {}): RefundResponse => ({
  id: '5d7c7a4e-7d51-4f44-9a7a-3f1f4bb0d6f1',
  state: 'ready',
  orderId: null,
  invoiceId: null,
  depositId: null,
  network: 'ethereum',
  currency: 'ETH',
  amount: '0.015',
  price: null,
  claim: { delivery: 'shared', expiresAt: '2026-11-28T00:00:00.000Z' },
  address: PAYER,
  tag: null,
  txId: null,
  missingSince: null,
  approval: 'none',
  reason: null,
  createdAt: '2026-11-27T00:00:00.000Z',
  updatedAt: '2026-11-27T00:00:00.000Z',
  ...fields,
});

beforeEach(() =>
  environment({
    ETHEREUM_RPC_URL: 'http://127.0.0.1:8545/',
    ETHEREUM_XPUB: testAccountXpub(findNetwork('ethereum')!),
    ETHEREUM_CHAIN_ID: '1337',
    ETHEREUM_TOKENS: `USDT:${CONTRACT}`,
    TRON_RPC_URL: 'http://127.0.0.1:8090/',
    TRON_XPUB: testAccountXpub(findNetwork('tron')!),
    TRON_TOKENS: `USDT:${TRON_CONTRACT}`,
  }),
);
afterEach(() => environment({}));

describe('refundWalletUri', () => {
  it("asks for the refund's whole amount to the confirmed address, on the configured chain and token", () => {
    expect(walletTransaction(refundWalletUri(refund(), 'live')!)).toEqual({
      chainId: '0x539',
      to: PAYER,
      value: `0x${(15n * 10n ** 15n).toString(16)}`,
    });
    const usdt = walletTransaction(refundWalletUri(refund({ currency: 'USDT', amount: '12.5' }), 'live')!);
    expect(usdt).toEqual({
      chainId: '0x539',
      to: CONTRACT,
      value: '0x0',
      data: `0xa9059cbb${PAYER.slice(2).toLowerCase().padStart(64, '0')}${(12_500_000).toString(16).padStart(64, '0')}`,
    });
  });

  it('offers nothing in test mode, before the address, after sending, while approval is owed, or off EVM', () => {
    expect(refundWalletUri(refund(), 'test')).toBeNull();
    expect(refundWalletUri(refund({ state: 'awaiting_address', address: null }), 'live')).toBeNull();
    expect(refundWalletUri(refund({ state: 'sent' }), 'live')).toBeNull();
    expect(refundWalletUri(refund({ approval: 'required' }), 'live')).toBeNull();
    expect(refundWalletUri(refund({ network: 'litecoin', currency: 'LTC', address: 'ltc1qxyz' }), 'live')).toBeNull();
    // A network live mode does not use (no node configured): nothing either.
    expect(refundWalletUri(refund({ network: 'polygon', currency: 'POL' }), 'live')).toBeNull();
  });
});

describe('refundTronTransfer', () => {
  const tron = (fields: Partial<RefundResponse> = {}) =>
    refund({ network: 'tron', currency: 'TRX', amount: '12.345678', address: TRON_PAYER, ...fields });

  it("asks for the refund's whole amount in base units to the confirmed address, TRX or the configured token, on the node's chain", () => {
    expect(refundTronTransfer(tron(), 'live', MAINNET)).toEqual({
      to: TRON_PAYER,
      amount: '12345678',
      contract: null,
      chainId: MAINNET,
    });
    expect(refundTronTransfer(tron({ currency: 'USDT', amount: '250.5' }), 'live', null)).toEqual({
      to: TRON_PAYER,
      amount: '250500000',
      contract: TRON_CONTRACT,
      chainId: null,
    });
    // Not an EIP-681 request: Tron is not EVM.
    expect(refundWalletUri(tron(), 'live')).toBeNull();
    expect(refundTronTransfer(refund(), 'live', MAINNET)).toBeNull();
  });

  it('offers nothing in test mode, before the address, after sending, while approval is owed or a plan pays it', () => {
    expect(refundTronTransfer(tron(), 'test', MAINNET)).toBeNull();
    expect(refundTronTransfer(tron({ state: 'awaiting_address', address: null }), 'live', MAINNET)).toBeNull();
    expect(refundTronTransfer(tron({ state: 'sent' }), 'live', MAINNET)).toBeNull();
    expect(refundTronTransfer(tron({ approval: 'required' }), 'live', MAINNET)).toBeNull();
    // An open plan pays it: the order page's one rule offers no way but the plan, so no wallet either.
    const planned = { ...tron(), openPlanId: 'plan-1' };
    expect(refundPayWays(planned, 'tron').byHand).toBe(false);
    expect(refundPayWays({ ...planned, openPlanId: null }, 'tron').byHand).toBe(true);
  });
});
