import 'server-only';
/**
 * A fresh tag for an order on a tag network, in the network's form (an XRP destination tag, a
 * Solana Pay reference: docs/decisions/057), as the address pool hands them out. Collisions are
 * refused by the unique index on (network, mode, address, tag).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { base58 } from '@scure/base';
import type { Network } from '../catalog';

export function freshTag(network: Network): string {
  if (!network.usesTags) throw new Error(`Network "${network.name}" does not use tags`);
  // A Solana Pay reference: 32 random bytes as a public key is written; it need not be on the curve.
  if (network.paymentReference) return base58.encode(randomBytes(32));
  // An XRP destination tag: a random 32-bit number, never 0, which wallets treat as "no tag".
  return String(randomInt(1, 2 ** 32 - 1));
}
