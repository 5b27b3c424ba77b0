import { DomainError } from '../errors';

/** Not a deposit of the caller (another merchant's or mode's is not found either). */
export class DepositNotFound extends DomainError<'DepositNotFound'> {
  constructor(id: string) {
    super('DepositNotFound', `Deposit ${id} was not found.`);
  }
}

export type DepositError = DepositNotFound;
