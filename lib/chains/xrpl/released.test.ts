import { describe, expect, it } from 'vitest';
import { releasedTo } from './released';

const ACCOUNT = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const OWNER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
/** A merchant's own receiving account, read besides the gateway's (docs/decisions/114). */
const MERCHANT = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';
const RECEIVING: ReadonlySet<string> = new Set([ACCOUNT, MERCHANT]);

/** An Escrow deleted by its finish; `tag` null for one without a DestinationTag. */
const escrow = (destination = ACCOUNT, tag: number | null = 7) => ({
  DeletedNode: {
    LedgerEntryType: 'Escrow',
    FinalFields: { Account: OWNER, Destination: destination, ...(tag !== null && { DestinationTag: tag }) },
  },
});
const root = (account: string, before: string | undefined, after: string) => ({
  ModifiedNode: {
    LedgerEntryType: 'AccountRoot',
    FinalFields: { Account: account, Balance: after },
    ...(before !== undefined && { PreviousFields: { Balance: before } }),
  },
});

describe('XRP released by an escrow or a payment channel', () => {
  it("is the account's balance change, under the tag of the object it came from", () => {
    expect(releasedTo([escrow(), root(ACCOUNT, '100', '600')], RECEIVING, 12n, OWNER)).toEqual({
      from: OWNER,
      to: ACCOUNT,
      tag: 7,
      drops: 500n,
    });
    expect(releasedTo([escrow(ACCOUNT, null), root(ACCOUNT, '100', '600')], RECEIVING, 12n, OWNER)).toMatchObject({
      tag: undefined,
    });
  });

  it("names which receiving account it reached: a merchant's own, its fee counted back when that one sent it", () => {
    const nodes = [escrow(MERCHANT), root(ACCOUNT, '100', '90'), root(MERCHANT, '100', '588')];
    expect(releasedTo(nodes, RECEIVING, 12n, MERCHANT)).toEqual({ from: OWNER, to: MERCHANT, tag: 7, drops: 500n });
    expect(releasedTo(nodes, new Set([ACCOUNT]), 12n, MERCHANT)).toBeNull();
  });

  it('counts the fee back when the account sent the transaction itself: it paid it, and received the whole', () => {
    expect(releasedTo([escrow(), root(ACCOUNT, '100', '588')], RECEIVING, 12n, ACCOUNT)).toMatchObject({ drops: 500n });
  });

  it('reads a claim on a channel that stays open (a modified PayChannel)', () => {
    const channel = {
      ModifiedNode: {
        LedgerEntryType: 'PayChannel',
        FinalFields: { Account: OWNER, Destination: ACCOUNT, DestinationTag: 9, Balance: '2000' },
        PreviousFields: { Balance: '1000' },
      },
    };
    expect(releasedTo([channel, root(ACCOUNT, '5000', '5988')], RECEIVING, 12n, ACCOUNT)).toEqual({
      from: OWNER,
      to: ACCOUNT,
      tag: 9,
      drops: 1000n,
    });
  });

  it("is nothing when the object is not the account's, or its balance did not grow", () => {
    expect(releasedTo([escrow(OWNER), root(OWNER, '100', '600')], RECEIVING, 12n, OWNER)).toBeNull();
    expect(releasedTo([escrow()], RECEIVING, 12n, OWNER)).toBeNull();
    expect(releasedTo([escrow(), root(ACCOUNT, undefined, '600')], RECEIVING, 12n, OWNER)).toBeNull();
    expect(releasedTo([escrow(), root(ACCOUNT, '600', '588')], RECEIVING, 12n, OWNER)).toBeNull();
  });

  it("refuses the account's objects in a shape the ledger does not write", () => {
    expect(() => releasedTo([escrow(), root(ACCOUNT, '100', '6e2')], RECEIVING, 12n, OWNER)).toThrow(
      /the account balance: must be drops/,
    );
    expect(() => releasedTo([escrow(ACCOUNT, -1), root(ACCOUNT, '100', '600')], RECEIVING, 12n, OWNER)).toThrow(
      /its Escrow at DestinationTag/,
    );
  });
});
