import { describe, expect, it } from 'vitest';
import {
  decideAccountPlan,
  decideEvmRefundPlan,
  decidePlan,
  decideSolanaRefundPlan,
  decideTronRefundPlan,
  decideTronStep,
  solanaPlanSighting,
  tronPlanStatus,
} from './lifecycle';
import type { ChainTransfer } from '../chains';

const OURS = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const unspent = { spentByTx: null, spentAtHeight: null };
const byOurs = (height: number) => ({ spentByTx: OURS, spentAtHeight: height });

describe('collection plan lifecycle', () => {
  it('prepared stays prepared while nothing is spent', () => {
    expect(decidePlan({ status: 'prepared', txid: OURS }, [unspent, unspent], 100, 3)).toEqual({
      status: 'prepared',
      txid: OURS,
      reason: null,
    });
  });
  it('prepared -> broadcast when its transaction is in a block short of the confirmations', () => {
    expect(decidePlan({ status: 'prepared', txid: OURS }, [byOurs(100), byOurs(100)], 101, 3).status).toBe('broadcast');
  });
  it('broadcast -> confirmed at the required confirmations', () => {
    expect(decidePlan({ status: 'broadcast', txid: OURS }, [byOurs(100), byOurs(100)], 102, 3).status).toBe(
      'confirmed',
    );
  });
  it('prepared -> confirmed in one step when the watcher sees it late', () => {
    expect(decidePlan({ status: 'prepared', txid: OURS }, [byOurs(90)], 100, 3).status).toBe('confirmed');
  });
  it('prepared -> stale when another transaction spent an input', () => {
    const decision = decidePlan(
      { status: 'prepared', txid: OURS },
      [byOurs(100), { spentByTx: OTHER, spentAtHeight: 100 }],
      100,
      1,
    );
    expect(decision).toEqual({
      status: 'stale',
      txid: OURS,
      reason: `an input was spent by transaction ${OTHER}, not by this plan's`,
    });
  });
  it('broadcast -> failed when a reorganisation put another spender in its place', () => {
    expect(
      decidePlan({ status: 'broadcast', txid: OURS }, [{ spentByTx: OTHER, spentAtHeight: 101 }], 101, 3).status,
    ).toBe('failed');
  });
  it('broadcast -> prepared when its block was replaced and nothing spends its inputs yet', () => {
    expect(decidePlan({ status: 'broadcast', txid: OURS }, [unspent], 101, 3).status).toBe('prepared');
  });
  it('a plan without a known id takes the one transaction that spends all its inputs', () => {
    expect(decidePlan({ status: 'prepared', txid: null }, [byOurs(100)], 100, 1)).toEqual({
      status: 'confirmed',
      txid: OURS,
      reason: null,
    });
  });
  it('final plans stay final', () => {
    for (const status of ['confirmed', 'failed', 'stale'] as const)
      expect(decidePlan({ status, txid: OURS }, [unspent], 100, 1).status).toBe(status);
  });
});

describe('tron plan steps', () => {
  const prepared = { status: 'prepared' as const, reason: null };
  const mined = (height: number, success = true) => ({ height, success, reason: success ? null : 'OUT_OF_ENERGY' });
  it('prepared stays prepared until its transaction is in a scanned block', () => {
    expect(decideTronStep(prepared, null, false, 100, 3)).toEqual(prepared);
  });
  it('prepared -> broadcast in a block short of the confirmations', () => {
    expect(decideTronStep(prepared, mined(100), false, 101, 3)).toEqual({ status: 'broadcast', reason: null });
  });
  it('broadcast -> confirmed at the required confirmations', () => {
    expect(decideTronStep({ status: 'broadcast', reason: null }, mined(100), false, 102, 3).status).toBe('confirmed');
  });
  it('-> failed when its contract failed on chain, or it expired unmined', () => {
    expect(decideTronStep(prepared, mined(100, false), false, 105, 3)).toEqual({
      status: 'failed',
      reason: 'it failed on chain: OUT_OF_ENERGY',
    });
    expect(decideTronStep(prepared, null, true, 105, 3).status).toBe('failed');
  });
  it('a final step stays as it is', () => {
    const confirmed = { status: 'confirmed' as const, reason: null };
    expect(decideTronStep(confirmed, null, true, 105, 3)).toEqual(confirmed);
  });
  it("the plan's status from its steps'", () => {
    expect(tronPlanStatus([{ status: 'prepared' }, { status: 'prepared' }])).toBe('prepared');
    expect(tronPlanStatus([{ status: 'confirmed' }, { status: 'prepared' }])).toBe('broadcast');
    expect(tronPlanStatus([{ status: 'confirmed' }, { status: 'confirmed' }])).toBe('confirmed');
    expect(tronPlanStatus([{ status: 'confirmed' }, { status: 'failed' }])).toBe('failed');
  });
});

describe('account-chain plan lifecycle (EVM, Tron)', () => {
  const collected = (height: number, tx = OURS) => ({ spentByTx: tx, spentAtHeight: height });
  it('prepared stays prepared while no deposit is collected', () => {
    expect(decideAccountPlan({ status: 'prepared' }, [unspent, unspent], 100, 3, false)).toEqual({
      status: 'prepared',
      txid: null,
      reason: null,
    });
  });
  it('prepared -> broadcast when one deposit is collected, whatever its confirmations', () => {
    expect(decideAccountPlan({ status: 'prepared' }, [collected(90), unspent], 100, 3, false).status).toBe('broadcast');
  });
  it('broadcast stays broadcast until every deposit has the required confirmations', () => {
    expect(
      decideAccountPlan({ status: 'broadcast' }, [collected(90), collected(99, OTHER)], 100, 3, false).status,
    ).toBe('broadcast');
  });
  it('broadcast -> confirmed when every deposit, by any of its transactions, has them', () => {
    expect(decideAccountPlan({ status: 'broadcast' }, [collected(90), collected(98, OTHER)], 100, 3, false)).toEqual({
      status: 'confirmed',
      txid: null,
      reason: null,
    });
  });
  it('prepared -> confirmed in one step when the watcher sees it late', () => {
    expect(decideAccountPlan({ status: 'prepared' }, [collected(90)], 100, 3, false).status).toBe('confirmed');
  });
  it('prepared or broadcast -> failed when its transactions expired before every deposit was collected', () => {
    expect(decideAccountPlan({ status: 'prepared' }, [unspent], 100, 3, true)).toEqual({
      status: 'failed',
      txid: null,
      reason: 'its transactions expired before any was mined',
    });
    expect(decideAccountPlan({ status: 'broadcast' }, [collected(99), unspent], 100, 3, true)).toEqual({
      status: 'failed',
      txid: null,
      reason: 'its transactions expired with 1 of 2 deposits not collected',
    });
  });
  it('prepared or broadcast -> stale when its nonces are all used before every deposit was collected (EVM)', () => {
    expect(decideAccountPlan({ status: 'prepared' }, [unspent], 100, 3, false, true)).toEqual({
      status: 'stale',
      txid: null,
      reason: 'its nonces were used by other transactions with 1 of 1 deposits not collected: prepare again',
    });
    expect(decideAccountPlan({ status: 'broadcast' }, [collected(99), unspent], 100, 3, false, true).status).toBe(
      'stale',
    );
  });
  it('used nonces do not make stale a plan whose deposits were all collected: its own transactions used them', () => {
    expect(decideAccountPlan({ status: 'broadcast' }, [collected(99)], 100, 3, false, true).status).toBe('broadcast');
    expect(decideAccountPlan({ status: 'prepared' }, [collected(90)], 100, 3, false, true).status).toBe('confirmed');
  });
  it('expiry does not fail a plan whose deposits were all collected', () => {
    expect(decideAccountPlan({ status: 'broadcast' }, [collected(99)], 100, 3, true).status).toBe('broadcast');
  });
  it('broadcast -> prepared when a reorganisation took its transfers away', () => {
    expect(decideAccountPlan({ status: 'broadcast' }, [unspent], 100, 3, false).status).toBe('prepared');
  });
  it('a final plan stays as it is', () => {
    expect(decideAccountPlan({ status: 'confirmed' }, [unspent], 100, 3, true).status).toBe('confirmed');
    expect(decideAccountPlan({ status: 'failed' }, [collected(90)], 100, 3, false).status).toBe('failed');
  });
});

describe('EVM refund plan lifecycle (docs/decisions/112)', () => {
  const hash = `0x${'c'.repeat(64)}`;
  const mined = (height: number, success = true) => ({ mined: { height, success }, nonceUsed: true });
  const waiting = { mined: null, nonceUsed: false };
  const taken = { mined: null, nonceUsed: true };
  const decide = (
    status: 'prepared' | 'broadcast' | 'confirmed',
    seen: Parameters<typeof decideEvmRefundPlan>[1],
    txid: string | null = hash,
  ) => decideEvmRefundPlan({ status, txid }, seen, 100, 3);
  it('prepared stays prepared while its nonce is free and no receipt is seen', () => {
    expect(decide('prepared', waiting)).toEqual({ status: 'prepared', txid: hash, reason: null });
  });
  it('prepared -> broadcast when its receipt is in a block, -> confirmed with the confirmations', () => {
    expect(decide('prepared', mined(99))).toEqual({ status: 'broadcast', txid: hash, reason: null });
    expect(decide('broadcast', mined(98))).toEqual({ status: 'confirmed', txid: hash, reason: null });
    expect(decide('prepared', mined(95))).toEqual({ status: 'confirmed', txid: hash, reason: null });
  });
  it('failed when its transaction reverted', () => {
    expect(decide('prepared', mined(99, false))).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/reverted/),
    });
  });
  it('prepared -> stale when the nonce was used without its receipt; the reason says how to complete one sent unseen', () => {
    expect(decide('prepared', taken)).toMatchObject({
      status: 'stale',
      reason: expect.stringMatching(/another transaction/),
    });
    expect(decide('prepared', taken, null)).toMatchObject({
      status: 'stale',
      reason: expect.stringMatching(/complete the refund by its transaction id/),
    });
  });
  it('broadcast -> failed when a reorganisation took it and another transaction its nonce; -> prepared when the nonce is free', () => {
    expect(decide('broadcast', taken)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/replaced/) });
    expect(decide('broadcast', waiting)).toEqual({ status: 'prepared', txid: hash, reason: null });
  });
  it('a final plan stays', () => {
    expect(decide('confirmed', taken)).toEqual({ status: 'confirmed', txid: hash, reason: null });
  });
});

describe('Tron refund plan lifecycle (docs/decisions/115)', () => {
  const id = 'd'.repeat(64);
  const mined = (height: number, success = true) => ({ height, success, reason: success ? null : 'REVERT' });
  const decide = (
    status: 'prepared' | 'broadcast' | 'confirmed',
    seen: Parameters<typeof decideTronRefundPlan>[1],
    expired = false,
  ) => decideTronRefundPlan({ status, txid: id }, seen, expired, 100, 3);
  it('prepared until its id is in a block; broadcast, then confirmed with the confirmations, keeping its id', () => {
    expect(decide('prepared', null)).toEqual({ status: 'prepared', txid: id, reason: null });
    expect(decide('prepared', mined(99))).toEqual({ status: 'broadcast', txid: id, reason: null });
    expect(decide('broadcast', mined(98))).toEqual({ status: 'confirmed', txid: id, reason: null });
  });
  it('failed when its transaction failed on chain, or was in no block by its expiration; a final plan stays', () => {
    expect(decide('prepared', mined(99, false))).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/REVERT/),
    });
    expect(decide('prepared', null, true)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/expired/),
    });
    expect(decide('confirmed', null, true)).toEqual({ status: 'confirmed', txid: id, reason: null });
  });
});

describe('Solana refund plan lifecycle', () => {
  const SIGNATURE = '5'.repeat(88);
  it('prepared -> confirmed when its transfer is seen (finalized is final), even past its expiry', () => {
    for (const expired of [false, true])
      expect(decideSolanaRefundPlan({ status: 'prepared', txid: null }, SIGNATURE, expired)).toEqual({
        status: 'confirmed',
        txid: SIGNATURE,
        reason: null,
      });
  });
  it('prepared stays prepared until the watcher scanned past its expiry, then stale', () => {
    expect(decideSolanaRefundPlan({ status: 'prepared', txid: null }, null, false)).toEqual({
      status: 'prepared',
      txid: null,
      reason: null,
    });
    expect(decideSolanaRefundPlan({ status: 'prepared', txid: null }, null, true)).toMatchObject({
      status: 'stale',
      reason: expect.stringMatching(/not seen before it expired/),
    });
  });
  it('final plans stay final', () => {
    for (const status of ['confirmed', 'failed', 'stale'] as const)
      expect(decideSolanaRefundPlan({ status, txid: null }, SIGNATURE, true).status).toBe(status);
  });

  const body = {
    wallet: 'Wa11et1111111111111111111111111111111111111',
    recipient: 'Payer11111111111111111111111111111111111111',
    mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    tokenProgram: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    decimals: 6,
    amount: '2500000',
    reference: 'Ref1111111111111111111111111111111111111111',
    expiresAt: '2026-11-28T03:00:00.000Z',
  };
  const transfer = (txHash: string, over: Partial<ChainTransfer> = {}): ChainTransfer => ({
    txHash,
    outputIndex: 1,
    from: body.wallet,
    to: body.recipient,
    tag: body.reference,
    currency: 'USDC',
    amount: 2_500_000n,
    blockHeight: 10,
    seenAt: new Date(0),
    ...over,
  });
  it('a sighting is the transaction under the reference paying exactly the planned currency to the recipient from the wallet', () => {
    const others = [
      transfer('short', { amount: 2_499_999n }),
      transfer('mint', { currency: 'USDT' }),
      transfer('elsewhere', { to: 'Someone1111111111111111111111111111111111' }),
      transfer('stranger', { from: 'Someone1111111111111111111111111111111111' }),
      transfer('untagged', { tag: 'Other11111111111111111111111111111111111111' }),
    ];
    expect(solanaPlanSighting({ currency: 'USDC', body }, others)).toEqual({
      seen: null,
      refused: [
        { txid: 'short', reason: expect.stringMatching(/pays 2499999 base units of USDC .* not the 2500000 planned/) },
        { txid: 'mint', reason: `it pays no USDC to ${body.recipient}` },
        { txid: 'elsewhere', reason: `it pays no USDC to ${body.recipient}` },
        { txid: 'stranger', reason: `it moves nothing from the plan's wallet ${body.wallet}` },
      ],
    });
    // The rent of the payer's new token account, in SOL, beside the token transfer: still the plan's.
    const paid = [
      transfer('paid'),
      transfer('paid', { currency: 'SOL', to: 'Ata1111111111111111111111111111111111111111' }),
    ];
    expect(solanaPlanSighting({ currency: 'USDC', body }, [...others, ...paid]).seen).toBe('paid');
  });
});
