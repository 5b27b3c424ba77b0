import { DomainError } from '../errors';

/**
 * A collection cannot be prepared as asked: no treasury, no key origin, nothing above the
 * minimum, the fee would eat the outputs, the node pruned a block it needs. The message says which.
 */
export class CollectionRefused extends DomainError<'CollectionRefused'> {
  constructor(message: string) {
    super('CollectionRefused', message);
  }
}

/** A body of a money-out operation holds key material: the gateway never takes it (docs/decisions/052). */
export class KeyMaterialRefused extends DomainError<'KeyMaterialRefused'> {
  constructor(path: string, what: string) {
    super(
      'KeyMaterialRefused',
      `${path} holds ${what}: the gateway never receives a private key or seed; sign with npm run signer on your own machine.`,
      [{ path, message: `holds ${what}` }],
    );
  }
}

/** A treasury address that is not a valid address of the network (its checksum checked). */
export class TreasuryInvalid extends DomainError<'TreasuryInvalid'> {
  constructor(network: string) {
    super('TreasuryInvalid', `not a valid ${network} address (checksum checked)`, [
      { path: 'address', message: `not a valid ${network} address` },
    ]);
  }
}

/** Every refusal of lib/payouts, for the API's table of answers. */
export type PayoutError = CollectionRefused | KeyMaterialRefused | TreasuryInvalid;
