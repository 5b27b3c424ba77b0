import 'server-only';
/** EVM addresses: EIP-55 checksummed 0x + last 20 bytes of keccak256(uncompressed key). */
import { bytesToHex } from '@noble/hashes/utils.js';
import { isAddress, publicKeyToAddress } from 'viem/utils';
import { uncompressedPublicKey } from '../public-key';

/** `publicKey` is the 33-byte compressed key BIP32 gives; Ethereum hashes the uncompressed form. */
export function evmAddress(publicKey: Uint8Array): string {
  return publicKeyToAddress(`0x${bytesToHex(uncompressedPublicKey(publicKey))}`);
}

/**
 * 0x + 40 hex digits. A mixed-case address must carry a correct EIP-55 checksum; an all-lower-case
 * one has no checksum to verify and is accepted, as every EVM wallet does.
 */
export function isValidEvmAddress(address: string): boolean {
  return isAddress(address, { strict: true });
}
