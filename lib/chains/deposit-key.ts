import 'server-only';
/**
 * A merchant's own deposit key for a network (docs/decisions/083): on a Bitcoin-family network an
 * output descriptor with its key origin, `wpkh([fingerprint/84h/2h/0h]xpub.../0/*)`, whose script
 * is the network's deposit script and whose extended key the network's derivation takes (its
 * version bytes: a test-chain tpub only on a test chain). The pool derives from the descriptor's
 * external chain `/0`, as from `<NETWORK>_XPUB`; plans take the origin (master fingerprint, path).
 *
 * On Solana it is the merchant's receiving wallet (docs/decisions/096): a public key, 32 bytes in
 * base58, where its orders are paid under their references as they are to `SOLANA_ADDRESS`. On
 * the XRP Ledger it is the merchant's receiving account (docs/decisions/114): a classic address
 * with its checksum, where its orders are paid under their destination tags as they are to
 * `RIPPLE_ADDRESS`.
 */
import type { Network } from '../catalog';
import { deriveAddress } from './derivation';
import { base58Bytes } from './solana/address';
import { isValidXrplAddress, isXAddress } from './xrpl/address';
import { DEPOSIT_SCRIPT, isUtxoCoin, parseKeyDescriptor, type KeyDescriptor } from './utxo/transactions';

/**
 * The networks a merchant sets its own key on, today: the Bitcoin family (descriptors), Solana (a
 * wallet) and the XRP Ledger (an account).
 */
export function takesOwnDepositKey(network: Network): boolean {
  return (
    (network.family === 'utxo' && isUtxoCoin(network.name)) || network.family === 'solana' || network.family === 'xrpl'
  );
}

/**
 * The key as stored (the descriptor in canonical form, with its checksum; a Solana wallet as
 * given, an XRP Ledger account as given) and the pool's source: the extended public key of the
 * descriptor's external chain, or the wallet or account. Throws an Error that says what is wrong and never repeats the value.
 */
export function parseDepositKey(network: Network, value: string): { key: string; source: string } {
  if (network.family === 'solana') {
    if (!base58Bytes(value, 32))
      throw new Error('a Solana receiving wallet is its public address: 32 bytes in base58, 32 to 44 characters');
    return { key: value, source: value };
  }
  if (network.family === 'xrpl') {
    // An X-address packs a tag of its own (an exchange's deposit account is one), which the
    // order's fresh tag would replace: the payment would reach the account under no tag its owner
    // expects. Refused, so the merchant gives the account it controls, by its classic address.
    if (isXAddress(value))
      throw new Error(
        "an X-address carries a destination tag of its own, which each order's tag would replace: give the account's classic address (r...)",
      );
    if (!isValidXrplAddress(value))
      throw new Error(
        'an XRP Ledger receiving account is its classic address: r..., 25 to 35 characters, its checksum holding',
      );
    return { key: value, source: value };
  }
  if (!takesOwnDepositKey(network) || !isUtxoCoin(network.name))
    throw new Error(`${network.name} takes no key of a merchant's own yet; its deposits use the gateway's`);
  const descriptor = parseKeyDescriptor(value);
  const script = DEPOSIT_SCRIPT[network.name];
  if (descriptor.script !== script)
    throw new Error(`${network.name} deposit addresses are ${script}(...), not ${descriptor.script}(...)`);
  // The network's own derivation reads the key: its version bytes, a test-chain key on mainnet.
  try {
    deriveAddress(network, descriptor.chainXpub, 0);
  } catch (error) {
    throw new Error((error as Error).message.replace(/^Extended public key/, 'the extended key'), { cause: error });
  }
  return { key: descriptor.text, source: descriptor.chainXpub };
}

const PARSED_LIMIT = 256;
const parsed = new Map<string, KeyDescriptor>();

/** The stored descriptor `key`, parsed (kept: orders and plans reuse a handful of keys). */
export function depositKeyDescriptor(key: string): KeyDescriptor {
  let descriptor = parsed.get(key);
  if (!descriptor) {
    descriptor = parseKeyDescriptor(key);
    if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value as string);
    parsed.set(key, descriptor);
  }
  return descriptor;
}
