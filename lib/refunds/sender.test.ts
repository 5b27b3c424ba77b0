/**
 * The address a refund may go back to (docs/decisions/125): one sender of every counted transfer,
 * on account chains only, valid for the network.
 */
import { describe, expect, it } from 'vitest';
import { findNetwork } from '../catalog';
import { refundNeedsTag, refundSenderAddress } from './sender';

const net = (name: string) => findNetwork(name)!;
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const OTHER_EVM = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const TRON = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const SOLANA = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk';
const RIPPLE = 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3';

describe('refundSenderAddress', () => {
  it('answers the one EVM sender of every transfer, whatever the case of its letters', () => {
    expect(refundSenderAddress(net('ethereum'), [EVM])).toBe(EVM);
    expect(refundSenderAddress(net('polygon'), [EVM, EVM.toLowerCase()])).toBe(EVM);
  });

  it('answers none when the transfers came from two addresses, or one sender is unknown', () => {
    expect(refundSenderAddress(net('ethereum'), [EVM, OTHER_EVM])).toBeNull();
    expect(refundSenderAddress(net('ethereum'), [EVM, null])).toBeNull();
    expect(refundSenderAddress(net('ethereum'), [null])).toBeNull();
    expect(refundSenderAddress(net('ethereum'), [])).toBeNull();
  });

  it('answers none on the Bitcoin family, whose inputs are no address that can receive', () => {
    expect(refundSenderAddress(net('bitcoin'), ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'])).toBeNull();
  });

  it('answers the sender on Tron, Solana and the XRP Ledger, and none for an address of another network', () => {
    expect(refundSenderAddress(net('tron'), [TRON, TRON])).toBe(TRON);
    expect(refundSenderAddress(net('solana'), [SOLANA])).toBe(SOLANA);
    expect(refundSenderAddress(net('ripple'), [RIPPLE])).toBe(RIPPLE);
    expect(refundSenderAddress(net('tron'), [EVM])).toBeNull();
    expect(refundSenderAddress(net('solana'), [TRON])).toBeNull();
  });
});

describe('refundNeedsTag', () => {
  it('holds for the XRP Ledger only: a Solana Pay reference is the gateway’s own', () => {
    expect(refundNeedsTag(net('ripple'))).toBe(true);
    for (const name of ['ethereum', 'tron', 'solana', 'litecoin']) expect(refundNeedsTag(net(name)), name).toBe(false);
  });
});
