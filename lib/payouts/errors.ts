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

/**
 * A merchant's own deposit key that cannot be used (docs/decisions/083): not a descriptor with its
 * key origin, the wrong checksum, script or version bytes for the network, or a key another
 * merchant (or the gateway) holds. Names the field; never repeats the value.
 */
export class DepositKeyInvalid extends DomainError<'DepositKeyInvalid'> {
  constructor(network: string, why: string) {
    super('DepositKeyInvalid', `key: not a usable ${network} deposit key: ${why}`, [{ path: 'key', message: why }]);
  }
}

/**
 * A fee payer that cannot be kept for a network (docs/decisions/099): not an EVM or Tron network of
 * the mode, not a valid address of it (checksum checked), or not a derivation path.
 */
export class FeePayerInvalid extends DomainError<'FeePayerInvalid'> {
  constructor(network: string, path: 'network' | 'address' | 'path', why: string) {
    super('FeePayerInvalid', `${path}: not a usable ${network} fee payer: ${why}`, [{ path, message: why }]);
  }
}

/** Every refusal of lib/payouts, for the API's table of answers. */
export type PayoutError =
  CollectionRefused | DepositKeyInvalid | FeePayerInvalid | KeyMaterialRefused | TreasuryInvalid;
