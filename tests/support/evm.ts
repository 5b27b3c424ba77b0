import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import solc from 'solc';
import { createTestClient, createWalletClient, http, publicActions, type Address, type Hash } from 'viem';
import { freePort } from '../../scripts/lib/postgres.mjs';

/**
 * A local EVM node: Foundry's anvil from its npm platform package (docs/decisions/044), a child
 * process serving JSON-RPC over HTTP and WebSocket on 127.0.0.1 and a free port, blocks mined
 * only on demand, and the test token compiled from tests/fixtures/TestToken.sol with the npm
 * `solc` compiler.
 */
export const CHAIN_ID = 1337;

/**
 * Named, never anvil's default (its newest fork), so that an anvil upgrade cannot change the
 * chain's rules under the tests. Osaka is the newest fork with new EVM rules that anvil 1.7.1
 * implements (it panics on Amsterdam; bpo1 and bpo2 after Osaka change only blob parameters, which
 * nothing here uses) and has what later work needs: EIP-7702 delegations (Prague) and EIP-7825's
 * cap of 2^24 gas per transaction, which anvil enforces only with --enable-tx-gas-limit.
 */
const HARDFORK = 'osaka';

/** anvil's npm packages by Node.js platform and architecture: no other platform has one. */
const ANVIL_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};
const anvilPackage = ANVIL_PACKAGES[`${process.platform}-${process.arch}`];

/** Why no EVM node can run here, or undefined where anvil can: the tests on one skip with it. */
export const evmNodeMissing: string | undefined = anvilPackage
  ? undefined
  : `anvil has no npm package for ${process.platform}-${process.arch} (only for linux and darwin on x64 and arm64, and win32 on x64): the tests on an EVM node are skipped`;
// Once per process that would start a node: the runners count skipped tests but do not say why.
if (evmNodeMissing) console.warn(evmNodeMissing);

export interface EvmNode {
  url: string;
  accounts: Address[];
  client: ReturnType<typeof makeClient>;
  mine(blocks?: number): Promise<void>;
  close(): Promise<void>;
}

function makeClient(url: string) {
  const chain = {
    id: CHAIN_ID,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  };
  return createTestClient({ mode: 'anvil', chain, transport: http(url, { retryCount: 0 }) })
    .extend(publicActions)
    .extend((c) => ({
      wallet: createWalletClient({ chain, transport: http(url, { retryCount: 0 }) }),
      c,
    }));
}

function anvilBinary(): string {
  if (!anvilPackage) throw new Error(evmNodeMissing);
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve(`${anvilPackage}/package.json`);
  } catch (error) {
    throw new Error(
      `${anvilPackage} is not installed: \`npm ci\` installs it unless optional dependencies are omitted`,
      { cause: error },
    );
  }
  const { bin } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: { anvil: string } };
  return path.join(path.dirname(manifest), bin.anvil);
}

const SETPRIV = '/usr/bin/setpriv';

/** The port was free when asked for, and taken before anvil bound it: another one is tried. */
class PortTaken extends Error {}

export async function startEvmNode(): Promise<EvmNode> {
  const binary = anvilBinary();
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(binary, await freePort());
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

async function launch(binary: string, port: number): Promise<EvmNode> {
  const args = [
    ...['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(CHAIN_ID)],
    ...['--hardfork', HARDFORK, '--enable-tx-gas-limit'],
    // Every transaction waits in the pool until a block is mined on demand (anvil_mine).
    '--no-mining',
    ...['--accounts', '3', '--balance', '1000'],
    '--quiet',
  ];
  // On Linux the kernel kills anvil when the process that started it dies, however it dies (a
  // worker killed by its runner included): setpriv from util-linux, which Debian always has.
  const child = fs.existsSync(SETPRIV)
    ? spawn(SETPRIV, ['--pdeathsig', 'SIGKILL', '--', binary, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let starting = true;
  let stderr = '';
  // Kept for the error while it starts; after that, what anvil says is a crash worth seeing.
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (starting) stderr += chunk;
    else process.stderr.write(chunk);
  });
  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.on('error', (error) => {
      spawnError = error;
      resolve();
    });
  });
  const running = () => !spawnError && child.exitCode === null && child.signalCode === null;
  // Elsewhere, a test process that ends without close() (a failed set-up, process.exit) takes anvil
  // with it; a Ctrl-C reaches anvil directly, in the terminal's process group.
  const killAtExit = () => child.kill('SIGKILL');
  process.once('exit', killAtExit);
  const stop = async () => {
    process.off('exit', killAtExit);
    // It keeps nothing worth a graceful stop.
    if (running()) child.kill('SIGKILL');
    await exited;
  };

  const url = `http://127.0.0.1:${port}`;
  const client = makeClient(url);
  const deadline = Date.now() + 30_000;
  // Ready when it answers: it starts in well under a second, so the wait is short polls.
  for (;;) {
    if (!running()) {
      await stop();
      if (/address already in use/i.test(stderr)) throw new PortTaken(stderr);
      throw new Error(
        `anvil did not start: ${spawnError?.message ?? (stderr.trim() || `exit code ${child.exitCode}, signal ${child.signalCode}`)}`,
        { cause: spawnError },
      );
    }
    try {
      await client.getChainId();
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`anvil did not answer on ${url} within 30 s`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  starting = false;
  return {
    url,
    accounts: await client.wallet.getAddresses(),
    client,
    mine: (blocks = 1) => client.mine({ blocks }),
    close: stop,
  };
}

let compiled: { abi: unknown[]; bytecode: `0x${string}` } | undefined;

export function testTokenArtifact(): { abi: unknown[]; bytecode: `0x${string}` } {
  if (compiled) return compiled;
  const source = fs.readFileSync(
    path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'TestToken.sol'),
    'utf8',
  );
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: source } },
    // Paris: no PUSH0, so any node from the last years runs it.
    settings: {
      evmVersion: 'paris',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length)
    throw new Error(`solc: ${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts['TestToken.sol'].TestToken;
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

/** Deploys a TestToken from `from`; mines its block. */
export async function deployToken(node: EvmNode, from: Address, symbol: string, decimals: number): Promise<Address> {
  const { abi, bytecode } = testTokenArtifact();
  const hash = await node.client.wallet.deployContract({
    abi,
    bytecode,
    account: from,
    args: [symbol, symbol, decimals],
    gas: 3_000_000n,
  } as never);
  await node.mine();
  const receipt = await node.client.getTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`token deployment reverted (gas used ${receipt.gasUsed})`);
  return receipt.contractAddress!;
}

export async function sendToken(
  node: EvmNode,
  token: Address,
  from: Address,
  method: 'mint' | 'transfer' | 'transferThenRevert',
  to: Address,
  amount: bigint,
): Promise<Hash> {
  const { abi } = testTokenArtifact();
  // A fixed gas limit: estimation would refuse the reverting call before it is sent.
  return node.client.wallet.writeContract({
    address: token,
    abi,
    functionName: method,
    args: [to, amount],
    account: from,
    gas: 200_000n,
  } as never);
}

/**
 * Sends signed transactions in order and mines until each has a receipt (a block holds what fits
 * its gas limit, so a long list may take several); answers the receipts in the same order.
 */
export async function sendRawAndMine(node: EvmNode, raws: readonly `0x${string}`[]) {
  const hashes: Hash[] = [];
  for (const raw of raws) hashes.push(await node.client.sendRawTransaction({ serializedTransaction: raw }));
  const receipts = [];
  for (const hash of hashes) {
    for (let blocks = 0; ; blocks++) {
      const receipt = await node.client.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt) {
        receipts.push(receipt);
        break;
      }
      if (blocks > raws.length) throw new Error(`transaction ${hash} was never mined`);
      await node.mine();
    }
  }
  return receipts;
}
