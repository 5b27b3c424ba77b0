import 'server-only';
/**
 * Deposit addresses: child `index` of a merchant's extended public key, in each network's real
 * mainnet format. Only public keys are handled here; an extended *private* key is refused.
 *
 * Accepted extended-key serializations (SLIP-132 version bytes; only the key bytes are used, the
 * address format always comes from the network):
 *   xpub (0x0488B21E), zpub (0x04B24746), Ltub (0x019DA462), dgub (0x02FACAFD); and for a network
 *   configured on a test chain (`network.chain` testnet/regtest) also tpub (0x043587CF),
 *   vpub (0x045F1CF6) and ttub (0x0436F6E1).
 * Refused: ypub/Mtub/upub (they belong to wrapped-segwit BIP49 wallets, which would never see the
 * native segwit addresses derived here), testnet keys for a mainnet network, and every private key.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import type { AddressChain, Network } from '../catalog';
import { evmAddress, isValidEvmAddress } from './evm/address';
import { childPublicKey } from './child-key';
import { testSeed } from './sandbox/test-seed';
import { isValidTronAddress, tronAddress } from './tron/address';
import { isUtxoCoin, isValidUtxoAddress, utxoAddress } from './utxo/address';
import { isValidXrplAddress, xrplAddress } from './xrpl/address';
import { isValidSolanaAddress, solanaWalletOfSeed } from './solana/address';

interface Codec {
  /** BIP44 path of the external chain node, m/purpose'/coin_type'/0'/0. */
  chainPath: string;
  encode(publicKey: Uint8Array): string;
  isValid(address: string): boolean;
}

const chainPath = (purpose: number, coinType: number) => `m/${purpose}'/${coinType}'/0'/0`;

const EVM: Codec = { chainPath: chainPath(44, 60), encode: evmAddress, isValid: isValidEvmAddress };
const TRON: Codec = { chainPath: chainPath(44, 195), encode: tronAddress, isValid: isValidTronAddress };
const XRPL: Codec = { chainPath: chainPath(44, 144), encode: xrplAddress, isValid: isValidXrplAddress };

// Native segwit (BIP84) where the chain has it; BIP44 P2PKH on the two that do not.
const UTXO_PATHS = {
  bitcoin: chainPath(84, 0),
  litecoin: chainPath(84, 2),
  dogecoin: chainPath(44, 3),
  bitcoincash: chainPath(44, 145),
} as const;

const UTXO: Record<keyof typeof UTXO_PATHS, Codec> = {
  bitcoin: utxoCodec('bitcoin'),
  litecoin: utxoCodec('litecoin'),
  dogecoin: utxoCodec('dogecoin'),
  bitcoincash: utxoCodec('bitcoincash'),
};

function utxoCodec(coin: keyof typeof UTXO_PATHS, chain: AddressChain = 'mainnet'): Codec {
  return {
    chainPath: UTXO_PATHS[coin],
    encode: (publicKey) => utxoAddress(coin, publicKey, chain),
    isValid: (address) => isValidUtxoAddress(coin, address, chain),
  };
}

const testChainCodecs = new Map<string, Codec>();

/** Throws for a network this module has no address format for: a catalog/code mismatch, a bug. */
function codecOf(network: Network): Codec {
  switch (network.family) {
    case 'evm':
      return EVM;
    case 'tron':
      return TRON;
    case 'xrpl':
      return XRPL;
    case 'utxo': {
      if (!isUtxoCoin(network.name)) break;
      const chain = network.chain ?? 'mainnet';
      if (chain === 'mainnet') return UTXO[network.name];
      const key = `${network.name}/${chain}`;
      let codec = testChainCodecs.get(key);
      if (!codec) testChainCodecs.set(key, (codec = utxoCodec(network.name, chain)));
      return codec;
    }
  }
  throw new Error(`No address derivation for network "${network.name}" (${network.family})`);
}

// --- Extended public keys --------------------------------------------------------------------

const ACCEPTED_PUBLIC_VERSIONS = new Map<number, string>([
  [0x0488b21e, 'xpub'],
  [0x04b24746, 'zpub'],
  [0x019da462, 'Ltub'],
  [0x02facafd, 'dgub'],
]);
const TEST_CHAIN_VERSIONS = new Map<number, string>([
  [0x043587cf, 'tpub'],
  [0x045f1cf6, 'vpub'],
  [0x0436f6e1, 'ttub'],
]);
const WRAPPED_SEGWIT_VERSIONS = new Set([0x049d7cb2 /* ypub */, 0x01b26ef6 /* Mtub */, 0x044a5262 /* upub */]);
const HARDENED = 0x80000000;
const base58check = createBase58check(sha256);

/**
 * Parses an external chain node (…/0) and checks it looks like one: a non-hardened child 0 below
 * the root. The common mistake, passing the account key (…/0', hardened) itself, is refused, as
 * its children would be addresses no wallet watches. Depth is not pinned to 4 so that keys of
 * non-BIP44 layouts (Electrum's m/0'/0, say) still work.
 */
function parseChainXpub(xpub: string): ParsedXpub {
  if (typeof xpub !== 'string') throw new TypeError('Extended public key must be a string');
  let raw: Uint8Array;
  try {
    raw = base58check.decode(xpub);
  } catch {
    throw new Error('Extended public key is not valid base58check (typo or truncated?)');
  }
  if (raw.length !== 78) throw new Error('Extended public key has the wrong length');
  const version = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getUint32(0, false);
  if (raw[45] === 0) throw new Error('Refusing an extended PRIVATE key: give the public key (xpub)');
  if (WRAPPED_SEGWIT_VERSIONS.has(version)) {
    throw new Error('ypub/Mtub/upub keys are for wrapped-segwit (BIP49) wallets; give the xpub or zpub instead');
  }
  const testChain = TEST_CHAIN_VERSIONS.has(version);
  if (!ACCEPTED_PUBLIC_VERSIONS.has(version) && !testChain) {
    throw new Error(
      `Unsupported extended key version 0x${version.toString(16).padStart(8, '0')}; expected xpub, zpub, Ltub or dgub (mainnet), or tpub, vpub, ttub (test chains)`,
    );
  }
  // `private` is required by the API but unused: the key bytes were checked to be public above.
  const node = HDKey.fromExtendedKey(xpub, { public: version, private: 0x0488ade4 });
  if (node.depth === 0 || node.index !== 0) {
    const at = node.index >= HARDENED ? `${node.index - HARDENED}'` : String(node.index);
    throw new Error(`Expected the external chain key (…/0), got a key at depth ${node.depth}, index ${at}`);
  }
  return { node, testChain };
}

interface ParsedXpub {
  node: HDKey;
  /** Serialized with a testnet version (tpub...): refused for a mainnet network. */
  testChain: boolean;
}

// Parsing costs a base58 decode and a point decompression; orders reuse a handful of keys, so the
// parsed nodes are kept. Bounded so a stream of distinct keys cannot grow memory without limit.
const PARSED_LIMIT = 256;
const parsed = new Map<string, ParsedXpub>();

function chainNode(xpub: string, network: Network): HDKey {
  let entry = parsed.get(xpub);
  if (!entry) {
    entry = parseChainXpub(xpub);
    if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value as string);
    parsed.set(xpub, entry);
  }
  if (entry.testChain && (network.chain ?? 'mainnet') === 'mainnet') {
    throw new Error(
      `A test-chain extended key (tpub/vpub/ttub) cannot receive on mainnet ${network.name}; give the mainnet xpub`,
    );
  }
  return entry.node;
}

// --- Public API ------------------------------------------------------------------------------

/**
 * The deposit address at child `index` (non-hardened) of the account extended public key
 * `accountXpub` (base58 xpub — or zpub/Ltub/dgub — of the external chain node, i.e. already at
 * m/purpose'/coin'/0'/0), in the network's real mainnet address format.
 * Throws on an unusable key (see parseChainXpub) or an index outside 0..2^31-1. BIP32 says to skip
 * an index whose child is invalid (odds about 2^-127); that throw is passed on.
 */
export function deriveAddress(network: Network, accountXpub: string, index: number): string {
  const codec = codecOf(network);
  if (!Number.isSafeInteger(index) || index < 0 || index >= HARDENED) {
    throw new RangeError(`Address index must be an integer in 0..${HARDENED - 1}, got ${index}`);
  }
  return codec.encode(childPublicKey(chainNode(accountXpub, network), index));
}

let testMaster: HDKey | undefined;
const testXpubs = new Map<string, string>();

/**
 * The extended public key of the external chain (m/purpose'/coin_type'/0'/0) derived from the
 * fixed public TEST seed, for test mode. Deterministic, cached. Always serialized as a plain
 * `xpub` (0x0488B21E) whatever the network, so it reads back with default versions.
 */
export function testAccountXpub(network: Network): string {
  const path = codecOf(network).chainPath;
  let xpub = testXpubs.get(path);
  if (xpub === undefined) {
    testMaster ??= HDKey.fromMasterSeed(testSeed());
    xpub = testMaster.derive(path).publicExtendedKey;
    testXpubs.set(path, xpub);
  }
  return xpub;
}

/**
 * Bitcoin family: the test seed's account key with its origin, as a descriptor
 * (`wpkh([73c5da0a/84h/2h/0h]xpub.../0/*)` on litecoin): the key of test mode's deposit addresses,
 * which a test-mode plan names so that the signer holding the public test seed finds its keys
 * (docs/decisions/097). The path is the pool's own (mainnet coin types: test mode writes mainnet addresses).
 */
export function testKeyDescriptor(network: Network): string {
  if (network.family !== 'utxo') throw new Error(`Network "${network.name}" has no extended key descriptor`);
  const chainPath = codecOf(network).chainPath; // m/purpose'/coin'/0'/0
  const accountPath = chainPath.replace(/\/0$/, '');
  testMaster ??= HDKey.fromMasterSeed(testSeed());
  const account = testMaster.derive(accountPath);
  const origin = [testMaster.fingerprint.toString(16).padStart(8, '0'), ...accountPath.split('/').slice(1)]
    .join('/')
    .replaceAll("'", 'h');
  const script = chainPath.startsWith("m/84'") ? 'wpkh' : 'pkh';
  return `${script}([${origin}]${account.publicExtendedKey}/0/*)`;
}

/**
 * For tag networks: the single receiving address of test mode, derived from the test seed
 * (ripple at m/44'/144'/0'/0/0; solana, whose ed25519 keys have no extended public key, at
 * m/44'/501'/0'/0' by SLIP-0010). Throws for a network that does not use tags.
 */
export function testTagAccountAddress(network: Network): string {
  if (!network.usesTags) throw new Error(`Network "${network.name}" does not use destination tags`);
  // Every tag of the pool shares this address: derive it once, not once per tag.
  let address = testTagAddresses.get(network.name);
  if (address === undefined) {
    address =
      network.family === 'solana'
        ? solanaWalletOfSeed(testSeed())
        : deriveAddress(network, testAccountXpub(network), 0);
    testTagAddresses.set(network.name, address);
  }
  return address;
}

const testTagAddresses = new Map<string, string>();

/** True when `address` is syntactically valid for the network (checksums verified). */
export function isValidAddress(network: Network, address: string): boolean {
  if (network.family === 'solana') return isValidSolanaAddress(address);
  const codec = codecOf(network);
  return typeof address === 'string' && codec.isValid(address);
}
