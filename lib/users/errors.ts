import { DomainError } from '../errors';

/**
 * A rule of the dashboard's accounts said no (a weak password, an unknown merchant, a used link,
 * the last owner...). Its message is for the person at the screen or the operator at the command
 * line: the pages and the CLI show it as it is.
 */
export class AccountError extends DomainError<'AccountError'> {
  constructor(message: string) {
    super('AccountError', message);
  }
}
