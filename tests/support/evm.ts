import fs from 'node:fs';
import path from 'node:path';
import ganache from 'ganache';
import solc from 'solc';
import { createTestClient, createWalletClient, http, publicActions, type Address, type Hash } from 'viem';

/**
 * A local EVM node from the dev dependencies (ganache, in this process, JSON-RPC over HTTP on
 * 127.0.0.1), blocks mined only on demand, and the test token compiled from
 * tests/fixtures/TestToken.sol with the npm `solc` compiler.
 */
export const CHAIN_ID = 1337;

export interface EvmNode {
  url: string;
  accounts: Address[];
  client: ReturnType<typeof makeClient>;
  mine(blocks?: number): Promise<void>;
  close(): Promise<void>;
}

function makeClient(url: string) {
  const chain = { id: CHAIN_ID, name: 'ganache', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } };
  return createTestClient({ mode: 'ganache', chain, transport: http(url, { retryCount: 0 }) }).extend(publicActions).extend((c) => ({
    wallet: createWalletClient({ chain, transport: http(url, { retryCount: 0 }) }),
    c,
  }));
}

export async function startEvmNode(): Promise<EvmNode> {
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: CHAIN_ID, hardfork: 'shanghai' },
    wallet: { totalAccounts: 3, defaultBalance: 1000 },
    miner: { blockTime: 0, instamine: 'eager' },
  } as never);
  await server.listen(0, '127.0.0.1');
  const port = (server as unknown as { address(): { port: number } }).address().port;
  const url = `http://127.0.0.1:${port}`;
  const client = makeClient(url);
  const accounts = (await client.request({ method: 'eth_accounts' } as never)) as Address[];
  // Every transaction waits in the pool until a block is mined on demand (evm_mine).
  await client.request({ method: 'miner_stop' } as never);
  return {
    url,
    accounts,
    client,
    mine: async (blocks = 1) => {
      for (let i = 0; i < blocks; i++) await client.request({ method: 'evm_mine' } as never);
    },
    close: () => server.close(),
  };
}

let compiled: { abi: unknown[]; bytecode: `0x${string}` } | undefined;

export function testTokenArtifact(): { abi: unknown[]; bytecode: `0x${string}` } {
  if (compiled) return compiled;
  const source = fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'TestToken.sol'), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: source } },
    // Paris: no PUSH0, so any node from the last years runs it.
    settings: { evmVersion: 'paris', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts['TestToken.sol'].TestToken;
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

/** Deploys a TestToken from `from`; mines its block. */
export async function deployToken(node: EvmNode, from: Address, symbol: string, decimals: number): Promise<Address> {
  const { abi, bytecode } = testTokenArtifact();
  const hash = await node.client.wallet.deployContract({ abi, bytecode, account: from, args: [symbol, symbol, decimals], gas: 3_000_000n } as never);
  await node.mine();
  const receipt = await node.client.getTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`token deployment reverted (gas used ${receipt.gasUsed})`);
  return receipt.contractAddress!;
}

export async function sendToken(node: EvmNode, token: Address, from: Address, method: 'mint' | 'transfer' | 'transferThenRevert', to: Address, amount: bigint): Promise<Hash> {
  const { abi } = testTokenArtifact();
  // A fixed gas limit: estimation would refuse the reverting call before it is sent.
  return node.client.wallet.writeContract({ address: token, abi, functionName: method, args: [to, amount], account: from, gas: 200_000n } as never);
}
