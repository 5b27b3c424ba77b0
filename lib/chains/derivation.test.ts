/**
 * Deposit-address derivation against independently published vectors of the public BIP39 test
 * mnemonic "abandon … about" (BIP84 spec, MetaMask, Ledger Live, xrpl.js, Ian Coleman's tool,
 * Trust Wallet Core…), not against values this code produced.
 */
import { pbkdf2Sync } from 'node:crypto';
import { bytesToHex } from '@noble/hashes/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { base58xrp, bech32, createBase58check } from '@scure/base';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { NETWORKS, findNetwork, type Network } from '../catalog';
import { deriveAddress, isValidAddress, testAccountXpub, testTagAccountAddress } from './derivation';
import { testSeed } from './sandbox/test-seed';

const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

const net = (name: string): Network => {
  const found = NETWORKS.find((n) => n.name === name);
  if (!found) throw new Error(`catalog has no ${name}`);
  return found;
};
const EVM_NETWORKS = NETWORKS.filter((n) => n.family === 'evm');
/** Solana's ed25519 keys have no extended public key: nothing derives from one (docs/decisions/057). */
const XPUB_NETWORKS = NETWORKS.filter((n) => n.family !== 'solana');
const base58check = createBase58check(sha256);

/** Re-serializes an extended key under other SLIP-132 version bytes (same key material). */
function withVersion(extendedKey: string, version: number): string {
  const raw = base58check.decode(extendedKey);
  new DataView(raw.buffer, raw.byteOffset).setUint32(0, version, false);
  return base58check.encode(raw);
}

// Published vectors. BIP84: https://github.com/bitcoin/bips/blob/master/bip-0084.mediawiki
const BIP84_ACCOUNT_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const ZPUB_VERSIONS = { public: 0x04b24746, private: 0x04b2430c };
/** m/44'/145'/0' account xpub, as Bitcoin Cash wallets publish it for the mnemonic. */
const BCH_ACCOUNT_XPUB =
  'xpub6ByHsPNSQXTWZ7PLESMY2FufyYWtLXagSUpMQq7Un96SiThZH2iJB1X7pwviH1WtKVeDP6K8d6xxFzzoaFzF3s8BKCZx8oEDdDkNnp4owAZ';

const KNOWN_FIRST_ADDRESSES: Record<string, string> = {
  bitcoin: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', // m/84'/0'/0'/0/0 (BIP84)
  litecoin: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', // m/84'/2'/0'/0/0
  dogecoin: 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC', // m/44'/3'/0'/0/0
  bitcoincash: 'bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6', // m/44'/145'/0'/0/0
  ethereum: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94', // m/44'/60'/0'/0/0
  tron: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', // m/44'/195'/0'/0/0
  ripple: 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3', // m/44'/144'/0'/0/0 (xrpl.js Wallet.fromMnemonic)
};

describe('test seed', () => {
  it('is the BIP39 seed of the public "abandon … about" mnemonic', () => {
    // BIP39: PBKDF2-HMAC-SHA512(mnemonic, "mnemonic" + passphrase, 2048 rounds, 64 bytes).
    const expected = pbkdf2Sync(MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
    expect(bytesToHex(testSeed())).toBe(expected.toString('hex'));
  });

  it('gives the BIP84 specification account key', () => {
    const account = HDKey.fromMasterSeed(testSeed(), ZPUB_VERSIONS).derive("m/84'/0'/0'");
    expect(account.publicExtendedKey).toBe(BIP84_ACCOUNT_ZPUB);
  });

  it('hands out copies', () => {
    const seed = testSeed();
    seed.fill(0);
    expect(testSeed().some((b) => b !== 0)).toBe(true);
  });
});

describe('testAccountXpub', () => {
  it("is the external chain node m/84'/0'/0'/0 of the BIP84 account, serialized as xpub", () => {
    const xpub = testAccountXpub(net('bitcoin'));
    expect(xpub.startsWith('xpub')).toBe(true);
    const node = HDKey.fromExtendedKey(xpub); // default (xpub) versions
    const expected = HDKey.fromExtendedKey(BIP84_ACCOUNT_ZPUB, ZPUB_VERSIONS).deriveChild(0);
    expect(node.depth).toBe(4);
    expect(node.index).toBe(0);
    expect(bytesToHex(node.publicKey!)).toBe(bytesToHex(expected.publicKey!));
    expect(bytesToHex(node.chainCode!)).toBe(bytesToHex(expected.chainCode!));
  });

  it('is the child 0 of the published Bitcoin Cash account xpub', () => {
    const expected = HDKey.fromExtendedKey(BCH_ACCOUNT_XPUB).deriveChild(0).publicExtendedKey;
    expect(testAccountXpub(net('bitcoincash'))).toBe(expected);
  });

  it('is deterministic, and one key for every EVM network', () => {
    for (const n of XPUB_NETWORKS) expect(testAccountXpub(n)).toBe(testAccountXpub(n));
    const evm = new Set(EVM_NETWORKS.map(testAccountXpub));
    expect(evm.size).toBe(1);
    expect(new Set(XPUB_NETWORKS.map(testAccountXpub)).size).toBe(7); // btc, ltc, bch, doge, evm, tron, xrp
    expect(() => testAccountXpub(net('solana'))).toThrow(/No address derivation/);
  });
});

describe('deriveAddress: published vectors', () => {
  it.each(Object.entries(KNOWN_FIRST_ADDRESSES))('%s index 0', (name, address) => {
    expect(deriveAddress(net(name), testAccountXpub(net(name)), 0)).toBe(address);
  });

  it('bitcoin index 1 (BIP84)', () => {
    expect(deriveAddress(net('bitcoin'), testAccountXpub(net('bitcoin')), 1)).toBe(
      'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
    );
  });

  it('the same EIP-55 addresses on every EVM network (index 0 and 1, as MetaMask shows them)', () => {
    for (const n of EVM_NETWORKS) {
      expect(deriveAddress(n, testAccountXpub(n), 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
      expect(deriveAddress(n, testAccountXpub(n), 1)).toBe('0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0');
    }
  });

  it('derives from the key it is given, not from the test seed', () => {
    const chain = HDKey.fromExtendedKey(BIP84_ACCOUNT_ZPUB, ZPUB_VERSIONS).deriveChild(0);
    expect(deriveAddress(net('bitcoin'), chain.publicExtendedKey, 0)).toBe(KNOWN_FIRST_ADDRESSES.bitcoin);
    const bch = HDKey.fromExtendedKey(BCH_ACCOUNT_XPUB).deriveChild(0).publicExtendedKey;
    expect(deriveAddress(net('bitcoincash'), bch, 0)).toBe(KNOWN_FIRST_ADDRESSES.bitcoincash);
  });

  it("testTagAccountAddress is the ripple address at m/44'/144'/0'/0/0", () => {
    expect(testTagAccountAddress(net('ripple'))).toBe(KNOWN_FIRST_ADDRESSES.ripple);
    expect(() => testTagAccountAddress(net('bitcoin'))).toThrow(/tags/);
  });

  it("a solana address is 32 bytes of base58: no other network's address, no 33 bytes, no garbage", () => {
    const solana = net('solana');
    const wallet = testTagAccountAddress(solana);
    expect(isValidAddress(solana, wallet)).toBe(true);
    for (const other of XPUB_NETWORKS)
      expect(isValidAddress(solana, deriveAddress(other, testAccountXpub(other), 0))).toBe(false);
    // No checksum: the wallet with a character less can be another valid address, and is not tried.
    for (const junk of ['', `${wallet} `, `${wallet}1`, '0'.repeat(44), `${wallet}\u0000`])
      expect(isValidAddress(solana, junk)).toBe(false);
  });

  it("testTagAccountAddress is the solana wallet at m/44'/501'/0'/0' (SLIP-0010, as Phantom and Solflare derive it)", () => {
    expect(testTagAccountAddress(net('solana'))).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk');
  });
});

describe('deriveAddress: formats', () => {
  const first = (name: string) => deriveAddress(net(name), testAccountXpub(net(name)), 0);

  it('bitcoin and litecoin are bech32 v0 20-byte programs under their hrp', () => {
    for (const [name, hrp] of [
      ['bitcoin', 'bc'],
      ['litecoin', 'ltc'],
    ] as const) {
      const address = first(name);
      expect(address.startsWith(`${hrp}1q`)).toBe(true);
      const { prefix, words } = bech32.decode(address as `${string}1${string}`);
      expect(prefix).toBe(hrp);
      expect(words[0]).toBe(0);
      expect(bech32.fromWords(words.slice(1))).toHaveLength(20);
    }
  });

  it('dogecoin is base58check with version 0x1e', () => {
    const address = first('dogecoin');
    expect(address.startsWith('D')).toBe(true);
    const raw = base58check.decode(address);
    expect(raw).toHaveLength(21);
    expect(raw[0]).toBe(0x1e);
  });

  it('bitcoincash is a prefixed P2PKH cashaddr', () => {
    expect(first('bitcoincash').startsWith('bitcoincash:q')).toBe(true);
  });

  it('tron is 34 characters of base58check with version 0x41', () => {
    const address = first('tron');
    expect(address).toMatch(/^T/);
    expect(address).toHaveLength(34);
    const raw = base58check.decode(address);
    expect(raw).toHaveLength(21);
    expect(raw[0]).toBe(0x41);
  });

  it('ripple is an "r" address of 0x00 + 20 bytes + 4 checksum bytes in the XRP alphabet', () => {
    const address = first('ripple');
    expect(address).toMatch(/^r/);
    const raw = base58xrp.decode(address);
    expect(raw).toHaveLength(25);
    expect(raw[0]).toBe(0);
    expect(bytesToHex(raw.subarray(21))).toBe(bytesToHex(sha256(sha256(raw.subarray(0, 21))).subarray(0, 4)));
  });

  it('evm addresses are already in EIP-55 form', () => {
    const address = first('ethereum');
    expect(getAddress(address)).toBe(address);
  });
});

// Alphabets used to make a one-character change that stays inside the format's character set.
const BECH32_CHARS = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE58_CHARS = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const XRP_CHARS = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';

function oneCharChanged(network: Network, address: string): string {
  if (network.family === 'evm') {
    // EIP-55 fixes the case of every letter: flipping one must break the checksum.
    const i = address.search(/[a-fA-F]/);
    const c = address.charAt(i);
    return address.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + address.slice(i + 1);
  }
  const chars =
    network.family === 'xrpl' ? XRP_CHARS : /^(bc1|ltc1|bitcoincash:)/.test(address) ? BECH32_CHARS : BASE58_CHARS;
  const i = address.length - 5;
  const next = chars.charAt((chars.indexOf(address.charAt(i)) + 1) % chars.length);
  return address.slice(0, i) + next + address.slice(i + 1);
}

describe.each(XPUB_NETWORKS.map((n) => [n.name, n] as const))('%s', (_name, network) => {
  const xpub = testAccountXpub(network);
  const addresses = Array.from({ length: 20 }, (_, i) => deriveAddress(network, xpub, i));
  const first = addresses[0] as string;

  it('gives 20 distinct addresses for indexes 0..19, deterministically', () => {
    expect(new Set(addresses).size).toBe(20);
    expect(deriveAddress(network, xpub, 7)).toBe(addresses[7]);
  });

  it('accepts every one of them', () => {
    for (const address of addresses) expect(isValidAddress(network, address)).toBe(true);
  });

  it('rejects each of them with one character changed', () => {
    for (const address of addresses) {
      const changed = oneCharChanged(network, address);
      expect(changed).not.toBe(address);
      expect(isValidAddress(network, changed)).toBe(false);
    }
  });

  it('rejects the addresses of networks with another format', () => {
    for (const other of XPUB_NETWORKS) {
      if (other.family === 'evm' && network.family === 'evm') continue; // one format
      if (other.name === network.name) continue;
      const foreign = deriveAddress(other, testAccountXpub(other), 0);
      expect(isValidAddress(network, foreign)).toBe(false);
    }
  });

  it('rejects garbage', () => {
    for (const junk of ['', ' ', 'hello', `${first} `, ` ${first}`, first.slice(0, -1)]) {
      expect(isValidAddress(network, junk)).toBe(false);
    }
    expect(isValidAddress(network, undefined as unknown as string)).toBe(false);
  });
});

describe('isValidAddress: other valid addresses of the networks', () => {
  it.each([
    ['bitcoin', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'], // P2PKH
    ['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'], // P2SH
    ['bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'], // BIP173, upper case
    ['bitcoin', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'], // BIP173 P2WSH
    ['bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'], // BIP350 taproot
    ['bitcoincash', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'], // cashaddr spec
    ['bitcoincash', 'BITCOINCASH:QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A'],
    ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'], // USDT contract
    ['ripple', 'rrrrrrrrrrrrrrrrrrrrrhoLvTp'], // ACCOUNT_ZERO
    ['ripple', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'], // genesis account
    ['ethereum', '0xdAC17F958D2ee523a2206206994597C13D831ec7'], // USDT contract
    ['ethereum', '0xdac17f958d2ee523a2206206994597c13d831ec7'], // lower case: no checksum to check
  ])('%s accepts %s', (name, address) => {
    expect(isValidAddress(net(name), address)).toBe(true);
  });

  it.each([
    ['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'], // BIP173 bad checksum
    ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'], // testnet
    ['bitcoin', 'Bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'], // mixed case
    ['bitcoincash', 'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'], // prefix left out
    ['bitcoincash', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu'], // legacy form
    ['bitcoincash', 'bchtest:qpm2qsznhks23z7629mms6s4cwef74vcwvqcw003ap'], // testnet
    ['ethereum', '0xdAC17F958D2ee523a2206206994597C13D831EC7'], // wrong EIP-55 case
    ['ethereum', '0xdAC17F958D2ee523a2206206994597C13D831ec'], // too short
  ])('%s rejects %s', (name, address) => {
    expect(isValidAddress(net(name), address)).toBe(false);
  });
});

describe('deriveAddress: extended keys and indexes', () => {
  const bitcoin = net('bitcoin');
  const xpub = testAccountXpub(bitcoin);

  it('accepts the zpub, Ltub and dgub serializations of the same node', () => {
    for (const version of [0x04b24746, 0x019da462, 0x02facafd]) {
      expect(deriveAddress(bitcoin, withVersion(xpub, version), 0)).toBe(KNOWN_FIRST_ADDRESSES.bitcoin);
    }
    expect(withVersion(xpub, 0x04b24746).startsWith('zpub')).toBe(true);
    expect(withVersion(xpub, 0x019da462).startsWith('Ltub')).toBe(true);
    expect(withVersion(xpub, 0x02facafd).startsWith('dgub')).toBe(true);
  });

  it('refuses ypub/Mtub (wrapped segwit) and testnet serializations', () => {
    expect(() => deriveAddress(bitcoin, withVersion(xpub, 0x049d7cb2), 0)).toThrow(/BIP49/);
    expect(() => deriveAddress(bitcoin, withVersion(xpub, 0x01b26ef6), 0)).toThrow(/BIP49/);
    expect(() => deriveAddress(bitcoin, withVersion(xpub, 0x044a5262), 0)).toThrow(/BIP49/); // upub
    expect(() => deriveAddress(bitcoin, withVersion(xpub, 0x043587cf), 0)).toThrow(/test-chain/); // tpub on mainnet
    expect(() => deriveAddress(bitcoin, withVersion(xpub, 0x04358394), 0)).toThrow(); // tprv
  });

  it('writes the addresses of a network configured on a test chain (testnet, regtest), from tpub or xpub alike', () => {
    const on = (name: string, chain: 'testnet' | 'regtest') => ({ ...findNetwork(name)!, chain });
    const tpub = withVersion(xpub, 0x043587cf);
    const mainnet = deriveAddress(bitcoin, xpub, 3);
    const regtest = deriveAddress(on('bitcoin', 'regtest'), tpub, 3);
    expect(regtest).toMatch(/^bcrt1q/);
    expect(deriveAddress(on('bitcoin', 'regtest'), xpub, 3)).toBe(regtest);
    // Same key hash, other human-readable part.
    expect(bech32.decode(regtest as `${string}1${string}`).words).toEqual(
      bech32.decode(mainnet as `${string}1${string}`).words,
    );
    expect(deriveAddress(on('bitcoin', 'testnet'), tpub, 3)).toMatch(/^tb1q/);
    expect(deriveAddress(on('litecoin', 'regtest'), tpub, 0)).toMatch(/^rltc1q/);
    expect(deriveAddress(on('litecoin', 'testnet'), tpub, 0)).toMatch(/^tltc1q/);
    expect(deriveAddress(on('dogecoin', 'testnet'), tpub, 0)).toMatch(/^n/);
    expect(deriveAddress(on('dogecoin', 'regtest'), tpub, 0)).toMatch(/^[mn]/);
    expect(deriveAddress(on('bitcoincash', 'testnet'), tpub, 0)).toMatch(/^bchtest:q/);
    expect(deriveAddress(on('bitcoincash', 'regtest'), tpub, 0)).toMatch(/^bchreg:q/);
    expect(isValidAddress(on('litecoin', 'regtest'), deriveAddress(on('litecoin', 'regtest'), tpub, 0))).toBe(true);
    expect(isValidAddress(findNetwork('litecoin')!, deriveAddress(on('litecoin', 'regtest'), tpub, 0))).toBe(false);
  });

  it('refuses an extended private key', () => {
    const xprv = HDKey.fromMasterSeed(testSeed()).derive("m/84'/0'/0'/0").privateExtendedKey;
    expect(() => deriveAddress(bitcoin, xprv, 0)).toThrow(/PRIVATE/);
  });

  it('refuses the account key or the master key in place of the external chain key', () => {
    const account = HDKey.fromExtendedKey(BIP84_ACCOUNT_ZPUB, ZPUB_VERSIONS);
    expect(() => deriveAddress(bitcoin, account.publicExtendedKey, 0)).toThrow(/external chain/);
    const master = HDKey.fromMasterSeed(testSeed()).publicExtendedKey;
    expect(() => deriveAddress(bitcoin, master, 0)).toThrow(/external chain/);
  });

  it('refuses malformed keys', () => {
    expect(() => deriveAddress(bitcoin, '', 0)).toThrow();
    expect(() => deriveAddress(bitcoin, xpub.slice(0, -1), 0)).toThrow(/base58check/);
    expect(() => deriveAddress(bitcoin, xpub.slice(0, -1) + (xpub.endsWith('a') ? 'b' : 'a'), 0)).toThrow();
  });

  it('refuses indexes outside 0..2^31-1', () => {
    for (const index of [-1, 1.5, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => deriveAddress(bitcoin, xpub, index)).toThrow(RangeError);
    }
    expect(deriveAddress(bitcoin, xpub, 2 ** 31 - 1)).toMatch(/^bc1q/);
  });

  it('refuses a network it has no format for', () => {
    const unknown: Network = { ...bitcoin, name: 'namecoin' };
    expect(() => deriveAddress(unknown, xpub, 0)).toThrow(/namecoin/);
    expect(() => isValidAddress(unknown, 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu')).toThrow(/namecoin/);
  });
});
