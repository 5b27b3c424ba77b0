/**
 * A SCRIPTED EVM node: an HTTP JSON-RPC server on 127.0.0.1 whose chain the test writes block by
 * block, for what a real node (anvil, tests/support/evm.ts) will not do on command: answer
 * `eth_getBlockReceipts` without one of the block's receipts or with receipts of another block (a
 * load-balanced provider whose backends disagree), and re-mine a transaction in another block,
 * after other logs, in a reorganisation. It answers exactly the methods the EVM adapter
 * (lib/chains/evm) calls, in the shapes of the Ethereum JSON-RPC specification
 * (https://ethereum.github.io/execution-apis/api-documentation/, "eth_getBlockByNumber",
 * "eth_getBlockReceipts", "eth_getTransactionReceipt", "eth_getLogs", "eth_call"), batches
 * included:
 *
 * - eth_chainId, eth_blockNumber;
 * - eth_getBlockByNumber [number, full]: the header, and the transactions as objects or hashes;
 * - eth_getBlockReceipts [number] and eth_getTransactionReceipt [hash]: status, block hash and
 *   number, the logs;
 * - eth_getLogs [{fromBlock, toBlock, address[], topics}]: logs numbered across the block
 *   (`logIndex`), as every node numbers them, filtered by emitter and first topic;
 * - eth_call [{to, data: decimals()}]: a token's decimals, as ERC-20 `decimals()` answers them.
 *
 * Values are the test's own: no signatures, no gas, no state. A token transfer is a transaction
 * to the token contract whose receipt carries `Transfer` logs the test names.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** The selector of `decimals()`. */
const DECIMALS = '0x313ce567';

type Hex = `0x${string}`;

/** One Transfer log a token transaction emits. */
export interface TokenMove {
  from: string;
  to: string;
  value: bigint;
}

/** A transaction as the test writes it. */
export interface ScriptedTx {
  hash: Hex;
  from: string;
  to: string;
  value: bigint;
  /** False: the receipt says status 0 (reverted), and it has no logs. */
  succeeds: boolean;
  /** Transfer logs, emitted by `to` (the token contract). */
  moves: TokenMove[];
}

interface Block {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
  txs: ScriptedTx[];
}

export interface ScriptedEvmNode {
  url: string;
  chainId: number;
  /** Decimals each token contract answers to `decimals()` (lower-case address); others revert. */
  decimals: Map<string, number>;
  /** Transactions whose receipt eth_getBlockReceipts leaves out (a provider's answer missing one). */
  receiptsMissing: Set<string>;
  /**
   * Receipts answered as of another block at the same height (a backend on another fork): their
   * `blockHash` is not the scanned block's, and their status is the opposite.
   */
  receiptsFromAnotherBlock: boolean;
  /** Whether eth_getBlockReceipts is offered (older nodes answer "method not found"). */
  blockReceipts: boolean;
  /** Requests answered, by method. */
  calls: Map<string, number>;
  /** The next block's time (Unix seconds); each block is at least 12 s after the one before. */
  clock: number | undefined;
  height(): number;
  /** Queues a native transfer for the next block; answers its hash. */
  sendNative(from: string, to: string, value: bigint, succeeds?: boolean): Hex;
  /** Queues a call to `token` emitting one Transfer log per move, in order; answers its hash. */
  sendToken(token: string, from: string, moves: TokenMove[]): Hex;
  /** Queues an already sent transaction again (the same hash): a re-mining after a reorganisation. */
  requeue(tx: Hex): void;
  /** The transaction `hash` as the test wrote it. */
  tx(hash: Hex): ScriptedTx;
  mine(count?: number): void;
  /** Replaces the newest `depth` blocks by `depth + 1` new ones, the first with what is queued. */
  reorg(depth: number): void;
  close(): Promise<void>;
}

const digest = (text: string): Hex => `0x${createHash('sha256').update(text).digest('hex')}`;
const hex = (n: number | bigint): Hex => `0x${n.toString(16)}`;
const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

export async function startScriptedEvmNode(options: { chainId?: number } = {}): Promise<ScriptedEvmNode> {
  const chain: Block[] = [];
  const sent = new Map<string, ScriptedTx>();
  let queued: ScriptedTx[] = [];
  let salt = 0;
  let nonce = 0;

  const makeBlock = (txs: ScriptedTx[]): Block => {
    const parent = chain[chain.length - 1];
    const number = parent ? parent.number + 1 : 0;
    const parentHash = parent?.hash ?? (`0x${'0'.repeat(64)}` as Hex);
    const timestamp = Math.max(parent ? parent.timestamp + 12 : 0, node.clock ?? Math.floor(Date.now() / 1000));
    return {
      number,
      parentHash,
      timestamp,
      txs,
      hash: digest(`${parentHash}:${number}:${salt}:${txs.map((t) => t.hash).join(',')}`),
    };
  };

  const queue = (tx: Omit<ScriptedTx, 'hash'>): Hex => {
    const full = { ...tx, hash: digest(`tx ${nonce++} ${tx.from} ${tx.to}`) };
    sent.set(full.hash, full);
    queued.push(full);
    return full.hash;
  };

  const node: ScriptedEvmNode = {
    url: '',
    chainId: options.chainId ?? 1337,
    decimals: new Map(),
    receiptsMissing: new Set(),
    receiptsFromAnotherBlock: false,
    blockReceipts: true,
    calls: new Map(),
    clock: undefined,
    height: () => chain.length - 1,
    sendNative: (from, to, value, succeeds = true) => queue({ from, to, value, succeeds, moves: [] }),
    sendToken: (token, from, moves) => queue({ from, to: token, value: 0n, succeeds: true, moves }),
    requeue(hash) {
      queued.push(node.tx(hash));
    },
    tx(hash) {
      const tx = sent.get(hash);
      if (!tx) throw new Error(`no transaction ${hash}`);
      return tx;
    },
    mine(count = 1) {
      for (let i = 0; i < count; i++) {
        chain.push(makeBlock(queued));
        queued = [];
      }
    },
    reorg(depth) {
      salt++;
      chain.splice(chain.length - depth, depth);
      node.mine(depth + 1);
    },
    close: async () => {},
  };
  node.mine(1); // block 0

  /** Each log of `block` with its block-wide index, as nodes number them. */
  function logsOf(block: Block) {
    let logIndex = 0;
    return block.txs.flatMap((tx, txIndex) =>
      tx.succeeds
        ? tx.moves.map((move) => ({
            address: tx.to.toLowerCase(),
            topics: [TRANSFER_TOPIC, word(move.from), word(move.to)],
            data: `0x${move.value.toString(16).padStart(64, '0')}`,
            blockNumber: hex(block.number),
            blockHash: block.hash,
            transactionHash: tx.hash,
            transactionIndex: hex(txIndex),
            logIndex: hex(logIndex++),
            removed: false,
          }))
        : [],
    );
  }

  function receipt(block: Block, tx: ScriptedTx, txIndex: number, stale: boolean) {
    const succeeds = stale ? !tx.succeeds : tx.succeeds;
    return {
      transactionHash: tx.hash,
      transactionIndex: hex(txIndex),
      blockHash: stale ? digest(`another block ${block.number}`) : block.hash,
      blockNumber: hex(block.number),
      from: tx.from.toLowerCase(),
      to: tx.to.toLowerCase(),
      cumulativeGasUsed: '0x5208',
      gasUsed: '0x5208',
      effectiveGasPrice: '0x3b9aca00',
      contractAddress: null,
      logs: succeeds ? logsOf(block).filter((l) => l.transactionHash === tx.hash) : [],
      logsBloom: `0x${'0'.repeat(512)}`,
      status: succeeds ? '0x1' : '0x0',
      type: '0x2',
    };
  }

  function transaction(block: Block, tx: ScriptedTx, txIndex: number) {
    return {
      hash: tx.hash,
      blockHash: block.hash,
      blockNumber: hex(block.number),
      transactionIndex: hex(txIndex),
      from: tx.from.toLowerCase(),
      to: tx.to.toLowerCase(),
      value: hex(tx.value),
      nonce: '0x0',
      gas: '0x5208',
      maxFeePerGas: '0x3b9aca00',
      maxPriorityFeePerGas: '0x0',
      input: '0x',
      type: '0x2',
      chainId: hex(node.chainId),
      v: '0x0',
      r: '0x1',
      s: '0x1',
      yParity: '0x0',
      accessList: [],
    };
  }

  function header(block: Block, full: boolean) {
    return {
      number: hex(block.number),
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: hex(block.timestamp),
      nonce: '0x0000000000000000',
      difficulty: '0x0',
      gasLimit: '0x1c9c380',
      gasUsed: '0x0',
      baseFeePerGas: '0x7',
      miner: `0x${'0'.repeat(40)}`,
      extraData: '0x',
      logsBloom: `0x${'0'.repeat(512)}`,
      mixHash: `0x${'0'.repeat(64)}`,
      receiptsRoot: `0x${'0'.repeat(64)}`,
      sha3Uncles: `0x${'0'.repeat(64)}`,
      stateRoot: `0x${'0'.repeat(64)}`,
      transactionsRoot: `0x${'0'.repeat(64)}`,
      size: '0x200',
      uncles: [],
      transactions: block.txs.map((tx, i) => (full ? transaction(block, tx, i) : tx.hash)),
    };
  }

  const blockAt = (tag: unknown): Block | undefined =>
    tag === 'latest' ? chain[chain.length - 1] : typeof tag === 'string' ? chain[Number(tag)] : undefined;

  /** The answer to one call: its result, or a JSON-RPC error. */
  function answer(
    method: string,
    params: unknown[],
  ): { result: unknown } | { error: { code: number; message: string } } {
    switch (method) {
      case 'eth_chainId':
        return { result: hex(node.chainId) };
      case 'eth_blockNumber':
        return { result: hex(node.height()) };
      case 'eth_getBlockByNumber': {
        const block = blockAt(params[0]);
        return { result: block ? header(block, params[1] === true) : null };
      }
      case 'eth_getBlockReceipts': {
        if (!node.blockReceipts)
          return { error: { code: -32601, message: 'the method eth_getBlockReceipts does not exist' } };
        const block = blockAt(params[0]);
        if (!block) return { result: null };
        return {
          result: block.txs
            .map((tx, i) => receipt(block, tx, i, node.receiptsFromAnotherBlock))
            .filter((r) => !node.receiptsMissing.has(r.transactionHash)),
        };
      }
      case 'eth_getTransactionReceipt': {
        for (const block of chain) {
          const i = block.txs.findIndex((tx) => tx.hash === params[0]);
          if (i >= 0) return { result: receipt(block, block.txs[i]!, i, node.receiptsFromAnotherBlock) };
        }
        return { result: null };
      }
      case 'eth_getLogs': {
        const filter = params[0] as { fromBlock: string; toBlock: string; address?: string[]; topics?: string[] };
        const addresses = new Set((filter.address ?? []).map((a) => a.toLowerCase()));
        const logs = chain
          .slice(Number(filter.fromBlock), Number(filter.toBlock) + 1)
          .flatMap(logsOf)
          .filter((l) => addresses.size === 0 || addresses.has(l.address))
          .filter((l) => !filter.topics?.[0] || l.topics[0] === filter.topics[0]);
        return { result: logs };
      }
      case 'eth_call': {
        const call = params[0] as { to: string; data?: string; input?: string };
        const decimals = node.decimals.get(call.to.toLowerCase());
        if ((call.data ?? call.input) !== DECIMALS || decimals === undefined)
          return { error: { code: 3, message: 'execution reverted' } };
        return { result: `0x${decimals.toString(16).padStart(64, '0')}` };
      }
      default:
        return { error: { code: -32601, message: `the method ${method} does not exist` } };
    }
  }

  const one = (request: { id?: unknown; method?: unknown; params?: unknown }) => {
    const method = String(request.method);
    node.calls.set(method, (node.calls.get(method) ?? 0) + 1);
    return { jsonrpc: '2.0', id: request.id ?? null, ...answer(method, (request.params as unknown[]) ?? []) };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400).end();
      }
      const result = Array.isArray(body) ? body.map(one) : one(body as Parameters<typeof one>[0]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  node.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return node;
}
