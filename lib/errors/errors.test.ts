import { describe, expect, it } from 'vitest';
import { processSlotKey } from '../process';
import { DomainError, isDomainError, isDomainErrorOf } from './index';

class Refused extends DomainError<'Refused'> {
  constructor() {
    super('Refused', 'no');
  }
}

describe('isDomainError', () => {
  it('recognises a domain error of this copy of the module and of any other (same brand, another class)', () => {
    expect(isDomainError(new Refused())).toBe(true);
    // What another bundle's copy of the class makes: an Error carrying the process-wide brand.
    const fromAnotherCopy = Object.assign(new Error('no'), { kind: 'Refused', [processSlotKey('domainError')]: true });
    expect(fromAnotherCopy instanceof DomainError).toBe(false);
    expect(isDomainError(fromAnotherCopy)).toBe(true);
    expect(isDomainErrorOf(fromAnotherCopy, 'Refused')).toBe(true);
    expect(isDomainErrorOf(fromAnotherCopy, 'Other')).toBe(false);
  });

  it('refuses anything else', () => {
    for (const value of [
      new Error('x'),
      Object.assign(new Error('x'), { kind: 'Refused' }),
      null,
      undefined,
      'Refused',
      { kind: 'Refused' },
    ]) {
      expect(isDomainError(value)).toBe(false);
    }
  });
});
