/**
 * A FAKE java-tron full node: a Tron node cannot run on this machine, so the Tron adapter's tests
 * run against this HTTP server on 127.0.0.1. It implements exactly the HTTP API methods the adapter
 * calls, with the request and answer shapes of the public documentation:
 *
 * - POST /wallet/getblock, /walletsolidity/getblock  {id_or_num?, detail?}
 *   https://developers.tron.network/reference/getblock
 *   https://tronprotocol.github.io/documentation-en/api/http/block-and-tx-query/getblock/
 * - POST /wallet/getblockbylimitnext  {startNum, endNum}  (endNum excluded, at most 100 blocks)
 *   https://developers.tron.network/reference/getblockbylimitnext
 * - POST /wallet/gettransactioninfobyblocknum  {num}
 *   https://developers.tron.network/reference/gettransactioninfobyblocknum
 *   https://tronprotocol.github.io/documentation-en/api/http/block-and-tx-query/gettransactioninfobyblocknum/
 * - Transaction and TransactionInfo fields (TransferContract, TriggerSmartContract, ret.contractRet,
 *   receipt.result SUCCESS / REVERT / OUT_OF_ENERGY, log address/topics/data):
 *   https://developers.tron.network/docs/tron-protocol-transaction
 *   https://developers.tron.network/reference/gettransactioninfobyid
 * - POST /wallet/triggerconstantcontract  {owner_address, contract_address, function_selector,
 *   parameter, visible}: a token's `decimals()` (constant_result), or `result.code` and a hex
 *   `message` for an address without a contract
 *   https://developers.tron.network/reference/triggerconstantcontract
 * - TRON-PRO-API-KEY header: https://developers.tron.network/reference/select-network (TronGrid)
 *
 * As java-tron does without `visible`: addresses in hex with the 0x41 version byte (a log's address
 * without it), fields at their protobuf default left out (block 0 has no `number`), amounts in sun
 * as JSON numbers (beyond 2^53 too), `{}` for a block above the head, `{"Error": ...}` for a
 * refused request. On command it fails a share of the calls (503 or a cut connection), lags
 * behind its chain, answers execution results from behind its blocks (as a load-balanced provider
 * whose results backend trails, or a node that pruned them), stops and restarts on the same port,
 * and reorganises its newest blocks.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** `T...` -> "41" + 40 hex digits, as the node writes addresses. */
export function tronHex(address: string): string {
  return Buffer.from(base58check.decode(address)).toString('hex');
}

export function tronBase58(hex41: string): string {
  return base58check.encode(Buffer.from(hex41, 'hex'));
}

/** A fresh random account, base58. */
export function randomTronAccount(): string {
  return tronBase58(`41${randomBytes(20).toString('hex')}`);
}

export type ContractResult = 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';

interface PendingTx {
  tx: Record<string, unknown>;
  info: Record<string, unknown>;
}

interface FakeBlock {
  id: string;
  number: number;
  parentHash: string;
  timestamp: number;
  txs: PendingTx[];
}

/**
 * One HTTP server in front of the fake chain, with its own way of answering: the node itself, or
 * a replica (FakeTronNode.replica) of the same chain, as a second node or a provider's backend.
 */
export interface FakeTronServer {
  url: string;
  /** Share of requests answered 503 or cut (0..1). */
  failRate: number;
  /** Blocks the node's answers stay behind its chain (as a node that is catching up). */
  lag: number;
  /**
   * Blocks its execution results (gettransactioninfobyblocknum) trail its blocks: a newer block's
   * results are answered empty, as a load-balanced provider whose results backend is behind (or a
   * node that pruned them) answers. `emptyResults` says how: `[]`, or `{}` as java-tron prints an
   * empty list.
   */
  resultsLag: number;
  emptyResults: '[]' | '{}';
  failed: number;
  /** Requests failed on purpose, by path. */
  failedCalls: Map<string, number>;
  /** Requests answered, by path. */
  calls: Map<string, number>;
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface FakeTronNode extends FakeTronServer {
  /** Blocks between the head and the newest solidified block (java-tron: 2/3 of 27 producers + 1 = 19). */
  solidDistance: number;
  /** What each token contract (base58) answers to `decimals()`; other addresses have no contract. */
  tokenDecimals: Map<string, number>;
  /** Another server of the same chain, on its own port with its own lag and failures (closed with the node). */
  replica(): Promise<FakeTronServer>;
  /** The next block's time (ms); each block is at least 3 s after the one before. */
  clock: number | undefined;
  height(): number;
  blockId(height: number): string;
  /** Queues a TRX payment (sun) for the next block; answers its txID. */
  sendTrx(from: string, to: string, sun: bigint): string;
  /** Queues a TRC-20 `transfer(to, value)` call on `contract` with the given outcome; answers its txID. */
  sendToken(contract: string, from: string, to: string, value: bigint, result?: ContractResult): string;
  /**
   * Queues a CreateSmartContract whose constructor calls `transfer(to, value)` on the token
   * `contract` (a contract deployed to pay out at once); answers its txID.
   */
  deployPaying(contract: string, from: string, to: string, value: bigint): string;
  mine(count?: number): void;
  /**
   * Replaces the newest `depth` blocks by `count` new ones (`depth + 1` unless given; fewer makes
   * the chain shorter) with what is queued.
   */
  reorg(depth: number, count?: number): void;
}

export async function startFakeTronNode(options: { apiKey?: string; seed?: number } = {}): Promise<FakeTronNode> {
  let state = (options.seed ?? 1) >>> 0 || 1;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const chain: FakeBlock[] = [];
  let pending: PendingTx[] = [];
  let forkSalt = 0;

  const makeBlock = (txs: PendingTx[]): FakeBlock => {
    const parent = chain[chain.length - 1];
    const number = parent ? parent.number + 1 : 0;
    const parentHash = parent?.id ?? '0'.repeat(64);
    const earliest = parent ? parent.timestamp + 3000 : 1_529_891_469_000;
    const timestamp = Math.max(earliest, node.clock ?? Date.now());
    const digest = createHash('sha256')
      .update(`${parentHash}:${number}:${forkSalt}:${txs.map((t) => t.tx.txID).join(',')}`)
      .digest('hex');
    const id = number.toString(16).padStart(16, '0') + digest.slice(16);
    for (const t of txs) Object.assign(t.info, { blockNumber: number, blockTimeStamp: timestamp });
    return { id, number, parentHash, timestamp, txs };
  };

  const txId = () => randomBytes(32).toString('hex');
  const word = (hex: string) => hex.padStart(64, '0');

  const newServer = (): FakeTronServer => ({
    url: '',
    failRate: 0,
    lag: 0,
    resultsLag: 0,
    emptyResults: '[]',
    failed: 0,
    failedCalls: new Map(),
    calls: new Map(),
    stop: async () => {},
    restart: async () => {},
    close: async () => {},
  });
  const node: FakeTronNode = {
    ...newServer(),
    solidDistance: 19,
    tokenDecimals: new Map(),
    clock: undefined,
    height: () => chain[chain.length - 1]!.number,
    blockId: (height) => chain[height]!.id,
    sendTrx(from, to, sun) {
      const id = txId();
      const tx = {
        ret: [{ contractRet: 'SUCCESS' }],
        signature: [randomBytes(65).toString('hex')],
        txID: id,
        raw_data: {
          contract: [
            {
              parameter: {
                value: { amount: sun, owner_address: tronHex(from), to_address: tronHex(to) },
                type_url: 'type.googleapis.com/protocol.TransferContract',
              },
              type: 'TransferContract',
            },
          ],
          ref_block_bytes: '0000',
          ref_block_hash: '0000000000000000',
          expiration: Date.now() + 60_000,
          timestamp: Date.now(),
        },
      };
      pending.push({ tx, info: { id, contractResult: [''], receipt: { net_usage: 267 } } });
      return id;
    },
    sendToken(contract, from, to, value, result = 'SUCCESS') {
      const id = txId();
      const contractHex = tronHex(contract);
      const data = `a9059cbb${word(tronHex(to).slice(2))}${word(value.toString(16))}`;
      const tx = {
        ret: [{ contractRet: result }],
        signature: [randomBytes(65).toString('hex')],
        txID: id,
        raw_data: {
          contract: [
            {
              parameter: {
                value: { data, owner_address: tronHex(from), contract_address: contractHex },
                type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
              },
              type: 'TriggerSmartContract',
            },
          ],
          ref_block_bytes: '0000',
          ref_block_hash: '0000000000000000',
          expiration: Date.now() + 60_000,
          fee_limit: 100_000_000,
          timestamp: Date.now(),
        },
      };
      const ok = result === 'SUCCESS';
      const info: Record<string, unknown> = {
        id,
        fee: 13_844_850,
        contractResult: [ok ? word('1') : ''],
        contract_address: contractHex,
        receipt: { energy_fee: 13_499_850, energy_usage_total: 31_895, net_fee: 345_000, result },
        ...(ok
          ? {
              log: [
                {
                  address: contractHex.slice(2),
                  topics: [TRANSFER_TOPIC, word(tronHex(from).slice(2)), word(tronHex(to).slice(2))],
                  data: word(value.toString(16)),
                },
              ],
            }
          : {
              result: 'FAILED',
              resMessage: Buffer.from(result === 'REVERT' ? 'REVERT opcode executed' : 'Not enough energy').toString(
                'hex',
              ),
            }),
      };
      pending.push({ tx, info });
      return id;
    },
    deployPaying(contract, from, to, value) {
      const id = txId();
      const created = `41${randomBytes(20).toString('hex')}`;
      const tx = {
        ret: [{ contractRet: 'SUCCESS' }],
        signature: [randomBytes(65).toString('hex')],
        txID: id,
        raw_data: {
          contract: [
            {
              parameter: {
                value: {
                  owner_address: tronHex(from),
                  new_contract: { bytecode: '6080604052', name: 'Payer', origin_address: tronHex(from) },
                },
                type_url: 'type.googleapis.com/protocol.CreateSmartContract',
              },
              type: 'CreateSmartContract',
            },
          ],
          ref_block_bytes: '0000',
          ref_block_hash: '0000000000000000',
          expiration: Date.now() + 60_000,
          fee_limit: 1_000_000_000,
          timestamp: Date.now(),
        },
      };
      const contractHex = tronHex(contract);
      const info = {
        id,
        fee: 120_000_000,
        contractResult: [''],
        contract_address: created,
        receipt: { energy_fee: 119_000_000, energy_usage_total: 280_000, net_fee: 1_000_000, result: 'SUCCESS' },
        // The constructor's call to the token: the Transfer log is the token's, its sender the new contract.
        log: [
          {
            address: contractHex.slice(2),
            topics: [TRANSFER_TOPIC, word(created.slice(2)), word(tronHex(to).slice(2))],
            data: word(value.toString(16)),
          },
        ],
      };
      pending.push({ tx, info });
      return id;
    },
    mine(count = 1) {
      for (let i = 0; i < count; i++) {
        chain.push(makeBlock(pending));
        pending = [];
      }
    },
    reorg(depth, count = depth + 1) {
      forkSalt++;
      chain.splice(chain.length - depth, depth);
      node.mine(count);
    },
    replica: async () => {
      const replica = newServer();
      replicas.push(replica);
      await serve(replica);
      return replica;
    },
  };
  const replicas: FakeTronServer[] = [];
  node.mine(1); // block 0

  const header = (b: FakeBlock) => ({
    raw_data: {
      ...(b.number > 0 && { number: b.number }),
      txTrieRoot: '0'.repeat(64),
      witness_address: '41' + '11'.repeat(20),
      parentHash: b.parentHash,
      version: 31,
      ...(b.timestamp > 0 && { timestamp: b.timestamp }),
    },
    witness_signature: 'ab'.repeat(65),
  });
  const full = (b: FakeBlock) => ({
    blockID: b.id,
    block_header: header(b),
    ...(b.txs.length && { transactions: b.txs.map((t) => t.tx) }),
  });

  function answer(server: FakeTronServer, path: string, body: Record<string, unknown>): unknown {
    const head = Math.max(0, node.height() - server.lag);
    switch (path) {
      case '/wallet/getblock':
      case '/walletsolidity/getblock': {
        const top = path.startsWith('/walletsolidity') ? Math.max(0, head - node.solidDistance) : head;
        const asked = body.id_or_num === undefined || body.id_or_num === '' ? top : Number(body.id_or_num);
        if (!Number.isInteger(asked) || asked < 0)
          return { Error: 'class java.lang.NumberFormatException : For input string' };
        const b = asked <= top ? chain[asked] : undefined;
        if (!b) return {};
        return body.detail === true ? full(b) : { blockID: b.id, block_header: header(b) };
      }
      case '/wallet/getblockbylimitnext': {
        const start = Number(body.startNum);
        const end = Number(body.endNum);
        if (!(Number.isInteger(start) && Number.isInteger(end)) || end - start > 100 || start < 0 || end <= start) {
          return { Error: 'class java.lang.Exception : startNum or endNum is out of range' };
        }
        const blocks = chain.slice(start, Math.min(end, head + 1)).map(full);
        return blocks.length ? { block: blocks } : {};
      }
      case '/wallet/gettransactioninfobyblocknum': {
        const num = Number(body.num);
        const b = num <= head - server.resultsLag ? chain[num] : undefined;
        if (!b || b.txs.length === 0) return server.emptyResults === '{}' ? {} : [];
        return b.txs.map((t) => t.info);
      }
      case '/wallet/triggerconstantcontract': {
        const decimals = node.tokenDecimals.get(String(body.contract_address));
        if (body.function_selector !== 'decimals()' || decimals === undefined)
          return {
            result: {
              code: 'CONTRACT_VALIDATE_ERROR',
              message: Buffer.from('Smart contract is not exist.').toString('hex'),
            },
          };
        return {
          result: { result: true },
          energy_used: 238,
          constant_result: [word(decimals.toString(16))],
          transaction: { ret: [{}], visible: true, txID: randomBytes(32).toString('hex'), raw_data: {} },
        };
      }
      default:
        return undefined;
    }
  }

  /** Puts `server` on 127.0.0.1 (a free port, kept across stop and restart). */
  async function serve(server: FakeTronServer): Promise<void> {
    const http_ = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (random() < server.failRate) {
          server.failed++;
          server.failedCalls.set(path, (server.failedCalls.get(path) ?? 0) + 1);
          if (random() < 0.5) return void res.writeHead(503).end('Service Unavailable');
          return req.socket.destroy();
        }
        if (options.apiKey !== undefined && req.headers['tron-pro-api-key'] !== options.apiKey) {
          return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"Error":"ApiKey not exists"}');
        }
        let body: Record<string, unknown>;
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          body = text ? JSON.parse(text) : {};
        } catch {
          return void res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"Error":"com.alibaba.fastjson.JSONException"}');
        }
        const result = answer(server, path, body);
        if (result === undefined) return void res.writeHead(404).end();
        server.calls.set(path, (server.calls.get(path) ?? 0) + 1);
        res.writeHead(200, { 'content-type': 'application/json' }).end(json(result));
      });
    });
    let port = 0;
    const listen = () => new Promise<void>((resolve) => http_.listen(port, '127.0.0.1', resolve));
    await listen();
    port = (http_.address() as AddressInfo).port;
    server.url = `http://127.0.0.1:${port}`;
    const stop = () =>
      new Promise<void>((resolve) => {
        if (!http_.listening) return resolve();
        http_.closeAllConnections();
        http_.close(() => resolve());
      });
    server.stop = stop;
    server.restart = listen;
    server.close = stop;
  }

  await serve(node);
  const closeNode = node.close;
  node.close = async () => {
    await Promise.all([closeNode(), ...replicas.map((r) => r.close())]);
  };
  return node;
}

/** JSON with bigints written as JSON numbers, as java-tron writes sun amounts. */
function json(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `__big__${v}` : v)).replace(/"__big__(\d+)"/g, '$1');
}
