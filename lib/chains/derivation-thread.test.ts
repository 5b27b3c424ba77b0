/**
 * Batches derived on the derivation thread are the addresses `deriveAddress` gives on the calling
 * thread (which derivation.test.ts checks against published vectors), errors come back as
 * rejections, and a thread that dies is replaced on the next batch.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NETWORKS, type Network } from '../catalog';
import { deriveAddress, testAccountXpub } from './derivation';
import { deriveAddresses, derivationThreadReady, stopDerivationThread } from './derivation-thread';

const DERIVED = NETWORKS.filter((n) => !n.usesTags);
const regtestLitecoin: Network = { ...NETWORKS.find((n) => n.name === 'litecoin')!, chain: 'regtest' };

afterAll(stopDerivationThread);

describe('deriveAddresses on the derivation thread', () => {
  it.each([...DERIVED, regtestLitecoin].map((n) => [`${n.name}${n.chain ? ` (${n.chain})` : ''}`, n] as const))(
    '%s: the same addresses as deriveAddress, in index order',
    async (_name, network) => {
      const xpub = testAccountXpub(network);
      const batch = await deriveAddresses(network, xpub, 1000, 5);
      expect(batch).toEqual([1000, 1001, 1002, 1003, 1004].map((i) => deriveAddress(network, xpub, i)));
      expect(new Set(batch).size).toBe(5);
    },
  );

  it('concurrent batches each get their own answer', async () => {
    const [bitcoin, ethereum] = ['bitcoin', 'ethereum'].map((name) => NETWORKS.find((n) => n.name === name)!);
    const [a, b, c] = await Promise.all([
      deriveAddresses(bitcoin!, testAccountXpub(bitcoin!), 0, 3),
      deriveAddresses(ethereum!, testAccountXpub(ethereum!), 0, 3),
      deriveAddresses(bitcoin!, testAccountXpub(bitcoin!), 3, 3),
    ]);
    expect(a![0]).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(b![0]).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(c).toEqual([3, 4, 5].map((i) => deriveAddress(bitcoin!, testAccountXpub(bitcoin!), i)));
  });

  it('an unusable key is a rejection with the reason, and the thread goes on', async () => {
    const bitcoin = NETWORKS.find((n) => n.name === 'bitcoin')!;
    await expect(deriveAddresses(bitcoin, 'xpub-not-a-key', 0, 2)).rejects.toThrow(/not valid base58check/);
    await expect(deriveAddresses(bitcoin, testAccountXpub(bitcoin), 2 ** 31, 1)).rejects.toThrow(/Address index/);
    expect(await deriveAddresses(bitcoin, testAccountXpub(bitcoin), 0, 1)).toEqual([
      'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
    ]);
  });

  it('a thread stopped with batches out fails them, and the next batch starts a new thread', async () => {
    const tron = NETWORKS.find((n) => n.name === 'tron')!;
    const xpub = testAccountXpub(tron);
    const long = deriveAddresses(tron, xpub, 0, 5000);
    await stopDerivationThread();
    await expect(long).rejects.toThrow(/address derivation thread exited/);
    await expect(derivationThreadReady()).resolves.toBeUndefined();
    expect(await deriveAddresses(tron, xpub, 7, 1)).toEqual([deriveAddress(tron, xpub, 7)]);
  });
});
