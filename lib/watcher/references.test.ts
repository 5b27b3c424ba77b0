/**
 * A payment reference pays once (docs/decisions/096): a step records the first transaction under
 * each reference in its first round, a second one in the next, after the first spent it.
 */
import { describe, expect, it } from 'vitest';
import { findNetwork } from '../catalog';
import type { ChainTransfer } from '../chains';
import { referenceRounds } from './references';

const solana = findNetwork('solana')!;
const ripple = findNetwork('ripple')!;
const transfer = (txHash: string, tag: string | null, options: Partial<ChainTransfer> = {}): ChainTransfer => ({
  txHash,
  outputIndex: 0,
  from: null,
  to: 'Wallet',
  tag,
  currency: 'USDC',
  amount: 1n,
  blockHeight: 1,
  seenAt: new Date(0),
  ...options,
});
const hashes = (rounds: ChainTransfer[][]) => rounds.map((round) => round.map((t) => `${t.txHash}/${t.outputIndex}`));

describe('referenceRounds', () => {
  it('puts each later transaction under one reference in a later round, keeping a transaction whole', () => {
    const rounds = referenceRounds(solana, [
      transfer('a', 'R1'),
      transfer('a', 'R1', { outputIndex: 3, currency: 'SOL' }),
      transfer('b', 'R2'),
      transfer('c', 'R1'),
      transfer('d', null),
      transfer('e', 'R1'),
      transfer('f', 'R1', { to: 'Another wallet' }),
    ]);
    expect(hashes(rounds)).toEqual([['a/0', 'a/3', 'b/0', 'd/0', 'f/0'], ['c/0'], ['e/0']]);
  });

  it('is one round where tags are no payment references (an XRP destination tag is paid again and again)', () => {
    const batch = [transfer('a', '7'), transfer('b', '7')];
    expect(hashes(referenceRounds(ripple, batch))).toEqual([['a/0', 'b/0']]);
    expect(referenceRounds(solana, [])).toEqual([]);
  });
});
