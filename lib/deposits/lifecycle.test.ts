import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  canWithdraw,
  DEPOSIT_STATES,
  incomingWrite,
  kindOf,
  onIncoming,
  OUT_STATUS,
  onOutgoing,
  WITHDRAWALS,
  type DepositStage,
  type DepositState,
  type DepositStatus,
  type IncomingTransfer,
} from './lifecycle';

type StateName = `${DepositStage}/${DepositStatus}`;

function state(name: StateName): DepositState {
  const [stage, status] = name.split('/') as [DepositStage, DepositStatus];
  return { stage, status };
}

const REQUIRED = 3;

/** The three things the watcher can observe of the incoming transfer. */
const OBSERVED = {
  short: { confirmations: REQUIRED - 1, requiredConfirmations: REQUIRED, dropped: false },
  confirmed: { confirmations: REQUIRED, requiredConfirmations: REQUIRED, dropped: false },
  dropped: { confirmations: 0, requiredConfirmations: REQUIRED, dropped: true },
} satisfies Record<string, IncomingTransfer>;
type Observed = keyof typeof OBSERVED;

const ALL_STATES: StateName[] = [
  'DEPOSIT/PENDING',
  'DEPOSIT/PROCESSED',
  'DEPOSIT/ERROR',
  'WITHDRAWAL/PENDING',
  'WITHDRAWAL/PROCESSED',
  'WITHDRAWAL/ERROR',
];

describe('deposit states', () => {
  it('are every stage with every status of the schema', () => {
    // Checked by the type check: a stage or status added to the schema fails it here.
    expectTypeOf<DepositStage>().toEqualTypeOf<'DEPOSIT' | 'WITHDRAWAL'>();
    expectTypeOf<DepositStatus>().toEqualTypeOf<'PENDING' | 'PROCESSED' | 'ERROR'>();
    expect(DEPOSIT_STATES).toEqual(ALL_STATES.map(state));
  });
});

describe('onIncoming: the first sight of a transfer that is a deposit', () => {
  it('opens a PENDING deposit while the transfer is short of its confirmations', () => {
    expect(onIncoming(null, OBSERVED.short)).toEqual({ to: state('DEPOSIT/PENDING') });
    expect(onIncoming(null, { ...OBSERVED.short, confirmations: 0 })).toEqual({ to: state('DEPOSIT/PENDING') });
  });

  it('opens a PROCESSED deposit from exactly the required confirmations on', () => {
    expect(onIncoming(null, OBSERVED.confirmed)).toEqual({ to: state('DEPOSIT/PROCESSED') });
    expect(onIncoming(null, { ...OBSERVED.confirmed, confirmations: REQUIRED + 10 })).toEqual({
      to: state('DEPOSIT/PROCESSED'),
    });
  });

  it('opens none for a transfer that dropped before anybody was shown it, confirmations or not', () => {
    const refused = { refused: 'A transfer dropped before it was a deposit opens none.' };
    expect(onIncoming(null, OBSERVED.dropped)).toEqual(refused);
    expect(onIncoming(null, { ...OBSERVED.dropped, confirmations: REQUIRED })).toEqual(refused);
  });
});

describe('onIncoming: a deposit observed again', () => {
  // Every state with every observation: the observation decides the status, the stage stays.
  const transitions: [StateName, Observed, StateName][] = [
    ['DEPOSIT/PENDING', 'short', 'DEPOSIT/PENDING'],
    ['DEPOSIT/PENDING', 'confirmed', 'DEPOSIT/PROCESSED'],
    ['DEPOSIT/PENDING', 'dropped', 'DEPOSIT/ERROR'],
    ['DEPOSIT/PROCESSED', 'short', 'DEPOSIT/PENDING'], // a reorganisation replaced its block
    ['DEPOSIT/PROCESSED', 'confirmed', 'DEPOSIT/PROCESSED'],
    ['DEPOSIT/PROCESSED', 'dropped', 'DEPOSIT/ERROR'],
    ['DEPOSIT/ERROR', 'short', 'DEPOSIT/PENDING'], // the transfer came back
    ['DEPOSIT/ERROR', 'confirmed', 'DEPOSIT/PROCESSED'],
    ['DEPOSIT/ERROR', 'dropped', 'DEPOSIT/ERROR'],
    ['WITHDRAWAL/PENDING', 'short', 'WITHDRAWAL/PENDING'],
    ['WITHDRAWAL/PENDING', 'confirmed', 'WITHDRAWAL/PROCESSED'],
    ['WITHDRAWAL/PENDING', 'dropped', 'WITHDRAWAL/ERROR'],
    ['WITHDRAWAL/PROCESSED', 'short', 'WITHDRAWAL/PENDING'],
    ['WITHDRAWAL/PROCESSED', 'confirmed', 'WITHDRAWAL/PROCESSED'],
    ['WITHDRAWAL/PROCESSED', 'dropped', 'WITHDRAWAL/ERROR'],
    ['WITHDRAWAL/ERROR', 'short', 'WITHDRAWAL/PENDING'],
    ['WITHDRAWAL/ERROR', 'confirmed', 'WITHDRAWAL/PROCESSED'],
    ['WITHDRAWAL/ERROR', 'dropped', 'WITHDRAWAL/ERROR'],
  ];

  it.each(transitions)('%s, observed %s: %s', (from, observed, to) => {
    expect(onIncoming(state(from), OBSERVED[observed])).toEqual({ to: state(to) });
  });

  it('lists every state with every observation', () => {
    expect(transitions.map(([from, observed]) => `${from} ${observed}`).sort()).toEqual(
      ALL_STATES.flatMap((from) => Object.keys(OBSERVED).map((observed) => `${from} ${observed}`)).sort(),
    );
  });

  it('counts the confirmations against the requirement of the observation', () => {
    expect(
      onIncoming(state('DEPOSIT/PENDING'), { confirmations: 1, requiredConfirmations: 1, dropped: false }),
    ).toEqual({ to: state('DEPOSIT/PROCESSED') });
    expect(
      onIncoming(state('DEPOSIT/PENDING'), { confirmations: 63, requiredConfirmations: 64, dropped: false }),
    ).toEqual({ to: state('DEPOSIT/PENDING') });
  });
});

describe('onOutgoing: a transfer leaves the address', () => {
  const transitions: [StateName, { to: DepositState } | { refused: string }][] = [
    ['DEPOSIT/PROCESSED', { to: state('WITHDRAWAL/PROCESSED') }],
    ['DEPOSIT/PENDING', { refused: 'A deposit still short of its confirmations is not withdrawn.' }],
    ['DEPOSIT/ERROR', { refused: 'A deposit the chain dropped is not withdrawn.' }],
    [
      'WITHDRAWAL/PENDING',
      { refused: 'The deposit was withdrawn already: its first outgoing transfer is its withdrawal.' },
    ],
    [
      'WITHDRAWAL/PROCESSED',
      { refused: 'The deposit was withdrawn already: its first outgoing transfer is its withdrawal.' },
    ],
    [
      'WITHDRAWAL/ERROR',
      { refused: 'The deposit was withdrawn already: its first outgoing transfer is its withdrawal.' },
    ],
  ];

  it.each(transitions)('%s: %o', (from, transition) => {
    expect(onOutgoing(state(from))).toEqual(transition);
  });

  it('lists every state', () => {
    expect(transitions.map(([from]) => from).sort()).toEqual([...ALL_STATES].sort());
  });

  it('gives the watcher one withdrawal to apply: DEPOSIT/PROCESSED to WITHDRAWAL/PROCESSED', () => {
    expect(WITHDRAWALS).toEqual([{ from: state('DEPOSIT/PROCESSED'), to: state('WITHDRAWAL/PROCESSED') }]);
  });

  it('records the withdrawal as processed (outTransactions.status): it is matched in scanned blocks only', () => {
    expect(OUT_STATUS).toBe('processed');
  });

  it('answers canWithdrawal for a PROCESSED deposit nothing has left yet only', () => {
    expect(ALL_STATES.filter((name) => canWithdraw(state(name)))).toEqual(['DEPOSIT/PROCESSED']);
  });
});

describe('incomingWrite: the columns the watcher writes for an observation', () => {
  it('writes a transfer short of its confirmations as pending', () => {
    expect(incomingWrite(OBSERVED.short)).toEqual({
      status: 'PENDING',
      inStatus: 'pending',
      message: null,
      confirmations: REQUIRED - 1,
      opens: state('DEPOSIT/PENDING'),
    });
  });

  it('writes a confirmed transfer as processed', () => {
    expect(incomingWrite({ ...OBSERVED.confirmed, confirmations: REQUIRED + 2 })).toEqual({
      status: 'PROCESSED',
      inStatus: 'processed',
      message: null,
      confirmations: REQUIRED + 2,
      opens: state('DEPOSIT/PROCESSED'),
    });
  });

  it('writes a dropped transfer as an error without confirmations, and opens no deposit for it', () => {
    expect(incomingWrite({ ...OBSERVED.dropped, confirmations: REQUIRED })).toEqual({
      status: 'ERROR',
      inStatus: 'dropped',
      message: 'The transfer was dropped by the chain (reorganisation).',
      confirmations: 0,
      opens: null,
    });
  });

  it('writes what onIncoming decides from every state: the status, never the stage', () => {
    for (const observed of Object.values(OBSERVED)) {
      const write = incomingWrite(observed);
      for (const from of DEPOSIT_STATES) {
        expect(onIncoming(from, observed)).toEqual({ to: { stage: from.stage, status: write.status } });
      }
      const opened = onIncoming(null, observed);
      expect(write.opens).toEqual('to' in opened ? opened.to : null);
    }
  });
});

describe('kindOf', () => {
  it('makes a transfer to an order that does not count for it an orphan, and one without an order personal', () => {
    expect(kindOf('6f1c8f5e-3a9b-4c1d-9e2f-0a1b2c3d4e5f', 'PAY_IN')).toBe('ORPHAN');
    expect(kindOf('6f1c8f5e-3a9b-4c1d-9e2f-0a1b2c3d4e5f', 'PERSONAL')).toBe('ORPHAN');
    expect(kindOf(null, 'PERSONAL')).toBe('PERSONAL');
  });

  it("makes a payment to the XRP receiving account under no order's tag an orphan", () => {
    expect(kindOf(null, 'PAY_IN')).toBe('ORPHAN');
  });
});
