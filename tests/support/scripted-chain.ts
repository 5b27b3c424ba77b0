import { createHash } from 'node:crypto';
import type { BlockRef, ChainAdapter, ChainTransfer } from '@/lib/chains/adapter';
import type { Database } from '@/lib/db/client';
import { network } from './chain';

/** A transfer as a test scripts it: where it goes and what it carries; the rest has defaults. */
export interface ScriptedTransfer {
  txHash?: string;
  outputIndex?: number;
  /** The sender the chain names; null where it names none (a UTXO mempool entry without its prevouts). */
  from?: string | null;
  /** The outputs its transaction spends (`txid:vout`): a replacement spends some of the same. */
  spentOutpoints?: readonly string[];
  to: string;
  currency: string;
  amount: bigint;
}

/**
 * A chain whose every answer the test writes: blocks with the times and transfers it chooses
 * (dated backwards, or hours ahead, as consensus allows and no node of ours can be made to
 * produce on demand), a mempool it sets, and reorganisations. It is a ChainAdapter like any
 * other, so the watcher reads it through the same code as a live node.
 */
export interface ScriptedChain extends ChainAdapter {
  /** Appends a block dated `time` with `transfers` (in it, each is dated by the block); answers its hash. */
  mine(time: Date, transfers?: readonly ScriptedTransfer[]): BlockRef;
  /** What the mempool shows from now on (each transfer's entry time is `seenAt`). */
  showMempool(transfers: readonly (ScriptedTransfer & { seenAt: Date })[]): void;
  /** Drops every block above `height` (the next `mine` builds on it): a reorganisation. */
  cutTo(height: number): void;
}

let txCounter = 0;
const hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A scripted chain posing as test mode's `name` (its deposit addresses are the test orders'). */
export function scriptedChain(name: string, requiredConfirmations = 1): ScriptedChain {
  const salt = `${name}:${Math.random()}`;
  const genesis: BlockRef = { height: 0, hash: hex(`${salt}:0`), parentHash: '0'.repeat(64), time: new Date(0) };
  const blocks: { ref: BlockRef; transfers: ChainTransfer[] }[] = [{ ref: genesis, transfers: [] }];
  let mempool: ChainTransfer[] = [];
  const transferOf = (t: ScriptedTransfer, blockHeight: number | null, seenAt: Date): ChainTransfer => ({
    txHash: t.txHash ?? hex(`${salt}:tx:${++txCounter}`),
    outputIndex: t.outputIndex ?? 0,
    from: t.from === undefined ? 'scripted-sender' : t.from,
    to: t.to,
    tag: null,
    currency: t.currency,
    amount: t.amount,
    blockHeight,
    seenAt,
    ...(t.spentOutpoints && { spentOutpoints: t.spentOutpoints }),
  });
  return {
    network: network(name),
    requiredConfirmations,
    async head() {
      return blocks[blocks.length - 1]!.ref;
    },
    async block(height) {
      return blocks[height]?.ref ?? null;
    },
    async scan(from, to) {
      const range = blocks.slice(from, to + 1);
      return { blocks: range.map((b) => b.ref), transfers: range.flatMap((b) => b.transfers) };
    },
    async mempool() {
      return mempool;
    },
    mine(time, transfers = []) {
      const parent = blocks[blocks.length - 1]!.ref;
      const height = parent.height + 1;
      const ref: BlockRef = { height, hash: hex(`${salt}:${height}:${++txCounter}`), parentHash: parent.hash, time };
      const inBlock = transfers.map((t) => transferOf(t, height, time));
      blocks.push({ ref, transfers: inBlock });
      // A mined transaction leaves the mempool.
      const mined = new Set(inBlock.map((t) => `${t.txHash}:${t.outputIndex}`));
      mempool = mempool.filter((t) => !mined.has(`${t.txHash}:${t.outputIndex}`));
      return ref;
    },
    showMempool(transfers) {
      mempool = transfers.map((t) => transferOf(t, null, t.seenAt));
    },
    cutTo(height) {
      blocks.length = height + 1;
    },
  };
}

/** Forgets where the watcher of test mode's `name` was, so that a new scripted chain starts it afresh. */
export async function forgetCursor(db: Database, name: string): Promise<void> {
  await db.query(`delete from chain_blocks where network = $1 and mode = 'test'`, [name]);
  await db.query(`delete from chain_cursors where network = $1 and mode = 'test'`, [name]);
}
