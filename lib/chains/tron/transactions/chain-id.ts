/**
 * Which Tron network a chain id names (docs/decisions/130). TIP-1193's `eth_chainId`, which TronLink
 * reports, is the last four bytes of the network's genesis block id, hex
 * (developers.tron.network/reference-link/eth_chainid, tronprotocol.github.io/documentation-en/api/json-rpc/node/eth_chainId/):
 * the gateway derives its node's from block 0, the order page's TronLink button a wallet's that
 * does not answer `eth_chainId` from the block 0 its TronWeb reads.
 */

/** The chain ids those pages list, by the name a merchant knows the network by. */
export const TRON_CHAIN_NAMES: Readonly<Record<string, string>> = {
  '0x2b6653dc': 'Tron mainnet',
  '0xcd8690dc': 'Nile',
  '0x94a9059e': 'Shasta',
};

/** The chain id of the network whose genesis block id (64 hex digits) is `genesisBlockId`: "0x" and its last 8 digits. */
export function tronChainIdOf(genesisBlockId: string): string {
  if (!/^[0-9a-f]{64}$/i.test(genesisBlockId)) throw new Error(`not a block id: ${genesisBlockId.slice(0, 80)}`);
  return `0x${genesisBlockId.slice(-8).toLowerCase()}`;
}

/** A chain id as wallets write it ("0x2b6653dc", any case, leading zeros or not) in one spelling; null for anything else. */
export function tronChainIdFrom(answer: unknown): string | null {
  if (typeof answer !== 'string' || !/^0x[0-9a-f]{1,8}$/i.test(answer)) return null;
  return `0x${BigInt(answer).toString(16).padStart(8, '0')}`;
}
