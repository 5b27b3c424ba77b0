// A throw-away litecoind in regtest for tests and benchmarks: Debian's package `litecoind`
// (installed when missing, as PostgreSQL is), a temporary data directory, RPC on 127.0.0.1 and a
// free port, no peers. stop() ends it and removes the directory; restart() keeps the chain.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './postgres.mjs';

const BINARY = '/usr/bin/litecoind';

export function ensureLitecoindInstalled() {
  if (fs.existsSync(BINARY)) return BINARY;
  if (process.getuid?.() !== 0)
    throw new Error('litecoind is not installed: run `sudo apt-get install litecoind` (or npm test as root).');
  console.log('Installing litecoind from Debian packages...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'litecoind'], { stdio: 'inherit', env });
  if (!fs.existsSync(BINARY)) throw new Error('The litecoind package did not provide /usr/bin/litecoind');
  return BINARY;
}

/**
 * Starts litecoind -regtest; answers { url, user, password, rpc(method, ...params), wallet(...),
 * stop(), halt(), restart(), dir }. The node has a wallet "test" with mature coins (101 blocks).
 * `extraArgs` are added to its command line (e.g. `-blocknotify=...`). `txindex: false` starts it
 * without `-txindex`, as most nodes run (a collection then reads previous transactions by block).
 */
export async function startLitecoind({ matureBlocks = 101, extraArgs = [], txindex = true } = {}) {
  const binary = ensureLitecoindInstalled();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-ltc-'));
  const rpcPort = await freePort();
  const p2pPort = await freePort();
  const user = 'gateway';
  const password = `pw${Math.random().toString(36).slice(2)}`;
  const args = [
    '-regtest',
    `-datadir=${dir}`,
    '-server',
    '-listen=0',
    '-dnsseed=0',
    '-discover=0',
    '-upnp=0',
    `-port=${p2pPort}`,
    `-rpcport=${rpcPort}`,
    '-rpcbind=127.0.0.1',
    '-rpcallowip=127.0.0.1',
    `-rpcuser=${user}`,
    `-rpcpassword=${password}`,
    '-fallbackfee=0.0002',
    `-txindex=${txindex ? 1 : 0}`,
    '-printtoconsole=0',
    '-rpcworkqueue=64',
    '-rpcthreads=8',
    ...extraArgs,
  ];
  const url = `http://127.0.0.1:${rpcPort}/`;
  let child;
  let exited;

  async function rpc(method, ...params) {
    return rpcAt(url, method, params);
  }
  async function rpcAt(at, method, params) {
    const response = await fetch(at, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
      },
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
      signal: AbortSignal.timeout(60_000),
    });
    const body = await response.json().catch(() => ({ error: { message: `HTTP ${response.status}` } }));
    if (body.error)
      throw Object.assign(new Error(`litecoind ${method}: ${body.error.message}`), { code: body.error.code });
    return body.result;
  }

  async function launch() {
    child = spawn(binary, args, { stdio: 'ignore' });
    exited = new Promise((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await rpc('getblockchaininfo');
        return;
      } catch (error) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`litecoind did not start: ${error.message}`, { cause: error });
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  async function halt() {
    if (!child || child.exitCode !== null) return;
    try {
      await rpc('stop');
    } catch {
      child.kill('SIGTERM');
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }

  await launch();
  await rpc('createwallet', 'test');
  const miner = await rpc('getnewaddress', '', 'bech32');
  if (matureBlocks > 0) await rpc('generatetoaddress', matureBlocks, miner);

  return {
    url,
    user,
    password,
    dir,
    rpc,
    /** Mines `n` blocks (to the wallet); answers their hashes. */
    mine: (n = 1) => rpc('generatetoaddress', n, miner),
    /** Stops the node, keeping its data directory (restart() brings it back with the same chain). */
    halt,
    async restart() {
      await launch();
      try {
        await rpc('loadwallet', 'test');
      } catch (error) {
        if (!/already loaded/i.test(error.message)) throw error;
      }
    },
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
