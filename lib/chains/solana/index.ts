import 'server-only';
/**
 * The ChainAdapter of Solana over a node's JSON-RPC (./rpc; https://solana.com/docs/rpc). Watch-only:
 * every order's destination is a receiving wallet, the gateway's (`SOLANA_ADDRESS`) or its
 * merchant's own (docs/decisions/096), and its own Solana Pay reference as its tag (decision 057).
 *
 * - Heights are slots, and only the `finalized` commitment is read: a finalized block is final,
 *   so there is no reorganisation to follow and one confirmation is enough. Slots without a block
 *   (skipped) answer "no block" (`block` is null there).
 * - Solana has no block an adapter could read whole at this gateway's cost (thousands of
 *   transactions a slot), and no mempool to show. Payments are read by account instead: for each
 *   receiving wallet (SOL) and each configured mint's token account of it (./accounts),
 *   the signatures of the slots scanned (`getSignaturesForAddress`, newest first, down to the first
 *   slot, from the last signature seen when the previous scan ended where this one starts), the
 *   failed ones left by their `err`, and each other transaction fetched once (`getTransaction`),
 *   even when it touched several of the accounts. What it paid is read from its balances
 *   (./transfers). The calls grow with the wallets (the merchants that set their own, and a
 *   replaced one while an order issued to it is open, which the watcher names before each step:
 *   `watchAccounts`), never with the orders open. A transaction one of those wallets paid the fee
 *   of is also what it sent (`outgoing`: every value it moved, under its reference), by which the
 *   watcher completes a refund plan (lib/payouts, docs/decisions/111).
 * - `scan(from, to)` therefore answers two blocks, not every block: the first block of the range
 *   (its parent is the watcher's cursor, which the watcher checks) and the last (where the cursor
 *   moves). A range of skipped slots only is read up to the next block after it, since the
 *   cursor must be a block.
 * - Before the first head, each configured mint and the wallet's account for it are checked
 *   (./accounts): a pass fails, naming what to create or change, until they are usable.
 * - Finalized headers never change: the watcher's cursor check is answered from memory.
 */
import { address } from '@solana/kit';
import type { Network } from '../../catalog';
import { envPrefix, type LiveChainConfig } from '../../config';
import { log } from '../../log';
import type { BlockRef, ChainTransfer } from '../adapter';
import type { LiveAdapter } from '../live-adapter';
import { checkedMints, walletAccounts, type CheckedMint } from './accounts';
import {
  blockAnswer,
  signaturesAnswer,
  slotAnswer,
  slotsAnswer,
  transactionAnswer,
  type SignatureInfo,
} from './answers';
import { SolanaRpcClient, SolanaRpcError } from './rpc';
import { transferRequest, transferTransaction } from './transfer-request';
import { referenceOf, transfersOf, transfersToAnyone, type ReceivingAccounts } from './transfers';
import { mintProgram, recentBlockhash } from './wallet-network';

export { isValidSolanaAddress } from './address';
export { SolanaRpcError } from './rpc';
export { mintProgram as solanaMintProgram } from './wallet-network';

const FINALIZED = { commitment: 'finalized' } as const;
/** Errors of a slot with no block: not available (-32004), skipped (-32007), skipped or not in long-term storage (-32009). */
const NO_BLOCK = new Set([-32004, -32007, -32009]);
/** The most signatures getSignaturesForAddress answers at once. */
const SIGNATURES_PAGE = 1000;
const HEADERS_KEPT = 2000;

export function solanaAdapter(network: Network, cfg: LiveChainConfig): LiveAdapter {
  const rpc = new SolanaRpcClient(cfg.rpc, network.name);
  const wallet = cfg.account!;
  const headers = new Map<number, BlockRef>();
  /** Per watched account, the newest signature the last scan saw: where the next one stops reading. */
  const newestSeen = new Map<string, Pick<SignatureInfo, 'signature' | 'slot'>>();
  let gateway: { mints: CheckedMint[]; receiving: ReceivingAccounts } | undefined;
  /** The other wallets the watcher named last (watchAccounts), and their accounts once read. */
  let merchantWallets: readonly string[] = [];
  const merchantAccounts = new Map<string, ReceivingAccounts>();

  /** The configured wallet's accounts, checked until they can receive (each pass fails, naming what to create). */
  async function ready(): Promise<{ mints: CheckedMint[]; receiving: ReceivingAccounts }> {
    if (gateway) return gateway;
    const mints = await checkedMints(rpc, network);
    const { receiving, problems } = await walletAccounts(rpc, network, wallet, `${envPrefix(network)}_ADDRESS`, mints);
    if (problems[0]) throw new SolanaRpcError(problems[0]);
    return (gateway = { mints, receiving });
  }

  /**
   * Every wallet paid here: the configured one, then each merchant's own, whose accounts are read
   * once, when the watcher first names it; an account of it that cannot receive yet is logged, not
   * fatal (one merchant's missing account must not stop the others' payments), and watched anyway.
   */
  async function receivingWallets(): Promise<ReceivingAccounts[]> {
    const { mints, receiving } = await ready();
    const all = [receiving];
    for (const own of merchantWallets) {
      if (own === wallet) continue;
      let accounts = merchantAccounts.get(own);
      if (!accounts) {
        const read = await walletAccounts(rpc, network, own, "a merchant's own", mints);
        for (const problem of read.problems) log.warn('a merchant cannot receive a Solana token yet', { problem });
        merchantAccounts.set(own, (accounts = read.receiving));
      }
      all.push(accounts);
    }
    return all;
  }

  function remember(ref: BlockRef): BlockRef {
    if (headers.size >= HEADERS_KEPT) headers.clear();
    headers.set(ref.height, ref);
    return ref;
  }

  async function header(slot: number): Promise<BlockRef | null> {
    const known = headers.get(slot);
    if (known) return known;
    let block;
    try {
      block = await rpc.call(
        'getBlock',
        [
          slot,
          {
            ...FINALIZED,
            encoding: 'json',
            transactionDetails: 'none',
            rewards: false,
            maxSupportedTransactionVersion: 0,
          },
        ],
        blockAnswer,
      );
    } catch (error) {
      if (error instanceof SolanaRpcError && error.code !== undefined && NO_BLOCK.has(error.code)) return null;
      throw error;
    }
    if (!block) return null;
    if (block.blockTime === null) throw new SolanaRpcError(`${rpc.label}: block ${slot} has no time`);
    return remember({
      height: slot,
      hash: block.blockhash,
      parentHash: block.previousBlockhash,
      time: new Date(block.blockTime * 1000),
    });
  }

  /** The successful and failed signatures of `account` in slots `from`..`to`, newest first. */
  async function signaturesIn(account: string, from: number, to: number): Promise<SignatureInfo[]> {
    const stop = newestSeen.get(account);
    const until = stop && stop.slot < from ? { until: stop.signature } : {};
    const found: SignatureInfo[] = [];
    for (let before: string | undefined; ;) {
      const page = await rpc.call(
        'getSignaturesForAddress',
        [account, { ...FINALIZED, limit: SIGNATURES_PAGE, ...until, ...(before ? { before } : {}) }],
        signaturesAnswer,
      );
      const below = page.findIndex((s) => s.slot < from);
      found.push(...(below < 0 ? page : page.slice(0, below)).filter((s) => s.slot <= to));
      if (below >= 0 || page.length < SIGNATURES_PAGE) break;
      before = page[page.length - 1]!.signature;
    }
    const newest = found[0];
    if (newest) newestSeen.set(account, newest);
    return found;
  }

  async function scan(
    from: number,
    to: number,
  ): Promise<{ blocks: BlockRef[]; transfers: ChainTransfer[]; outgoing: ChainTransfer[] }> {
    const wallets = await receivingWallets();
    const { mints } = await ready();
    let slots = await rpc.call('getBlocks', [from, to, FINALIZED], slotsAnswer);
    if (slots.length === 0) slots = await rpc.call('getBlocksWithLimit', [from, 1, FINALIZED], slotsAnswer);
    if (slots.length === 0) return { blocks: [], transfers: [], outgoing: [] };
    const [first, last] = [slots[0]!, slots[slots.length - 1]!];
    if (first < from || (last > to && slots.length > 1))
      throw new SolanaRpcError(`${rpc.label} answered blocks outside slots ${from}-${to}`);
    const blocks: BlockRef[] = [];
    for (const slot of first === last ? [first] : [first, last]) {
      const ref = await header(slot);
      if (!ref) throw new SolanaRpcError(`${rpc.label} lists block ${slot} but has none there`);
      blocks.push(ref);
    }
    const wanted = new Map<string, SignatureInfo>();
    for (const account of wallets.flatMap((w) => [w.wallet, ...w.tokens.map((t) => t.account)]))
      for (const info of await signaturesIn(account, from, last))
        if (info.err === null || info.err === undefined) wanted.set(info.signature, info);
    const transfers: ChainTransfer[] = [];
    const outgoing: ChainTransfer[] = [];
    const paying = new Set(wallets.map((w) => w.wallet));
    const native = network.currencies.find((c) => !c.contract)!.ticker;
    // Oldest first: the order they were made in, as the watcher records them.
    for (const info of [...wanted.values()].sort((a, b) => a.slot - b.slot)) {
      const tx = await rpc.call(
        'getTransaction',
        [info.signature, { ...FINALIZED, encoding: 'json', maxSupportedTransactionVersion: 0 }],
        transactionAnswer,
      );
      if (!tx || tx.slot !== info.slot || tx.transaction.signatures[0] !== info.signature)
        throw new SolanaRpcError(
          `${rpc.label} lists ${info.signature} in slot ${info.slot} but does not answer it there`,
        );
      const time = tx.blockTime != null ? new Date(tx.blockTime * 1000) : (await header(tx.slot))?.time;
      if (!time) throw new SolanaRpcError(`${rpc.label}: the block of ${info.signature} has no time`);
      try {
        for (const receiving of wallets) transfers.push(...transfersOf(tx, receiving, { slot: tx.slot, time }));
        // A transaction a receiving wallet paid for is one it sent (a refund plan's): everything it
        // moved, under the reference it carries (docs/decisions/111).
        if (paying.has(tx.transaction.message.accountKeys[0]!)) {
          const tag = referenceOf(tx);
          for (const t of transfersToAnyone(tx, { native, tokens: mints }, { slot: tx.slot, time }))
            outgoing.push({ ...t, tag });
        }
      } catch (error) {
        throw new SolanaRpcError(`${rpc.label}: ${(error as Error).message}`);
      }
    }
    return { blocks, transfers, outgoing };
  }

  return {
    network,
    // The live network carries the catalog's count: one, a finalized block is final.
    requiredConfirmations: network.confirmations,
    stats: rpc.stats,

    async head() {
      await ready();
      const slot = await rpc.call('getSlot', [FINALIZED], slotAnswer);
      const ref = await header(slot);
      if (!ref) throw new SolanaRpcError(`${rpc.label} has no block at its finalized slot ${slot}`);
      return ref;
    },

    block: (height) => header(height),
    scan,
    watchAccounts(accounts) {
      merchantWallets = accounts;
    },
    // Only finalized transactions are read: nothing before it is shown.
    mempool: async () => [],

    // A refund sent by hand, by its signature (docs/decisions/092): finalized only, so final, and
    // unknown (null) until then.
    async transaction(txHash) {
      const { mints } = await ready();
      const tx = await rpc.call(
        'getTransaction',
        [txHash, { ...FINALIZED, encoding: 'json', maxSupportedTransactionVersion: 0 }],
        transactionAnswer,
      );
      if (!tx) return null;
      if (tx.transaction.signatures[0] !== txHash)
        throw new SolanaRpcError(`${rpc.label} answered another transaction for ${txHash}`);
      const time = tx.blockTime != null ? new Date(tx.blockTime * 1000) : ((await header(tx.slot))?.time ?? null);
      if (!time) throw new SolanaRpcError(`${rpc.label}: the block of ${txHash} has no time`);
      const native = network.currencies.find((c) => !c.contract)!.ticker;
      let transfers: ChainTransfer[];
      try {
        transfers = transfersToAnyone(tx, { native, tokens: mints }, { slot: tx.slot, time });
      } catch (error) {
        throw new SolanaRpcError(`${rpc.label}: ${(error as Error).message}`);
      }
      return {
        transfers,
        confirmations: 1,
        blockHash: null,
        fee: tx.meta.fee === undefined ? null : BigInt(tx.meta.fee),
      };
    },
  };
}

/**
 * The unsigned transaction (base64 wire format) a browser wallet signs and sends to pay the
 * transfer request `walletUri` from `payer` (./transfer-request), with a recent blockhash and the
 * token's program from the network's nodes (./wallet-network); null when the URI asks for nothing
 * (nothing left to pay, or not a request of this network's currencies).
 */
export async function solanaPaymentTransaction(
  network: Network,
  cfg: LiveChainConfig,
  walletUri: string,
  payer: string,
): Promise<string | null> {
  const currencyOf = (mint: string | null) => network.currencies.find((c) => (c.contract ?? null) === mint);
  const request = transferRequest(walletUri, (mint) => currencyOf(mint)?.decimals);
  if (!request) return null;
  const [lifetime, program] = await Promise.all([
    recentBlockhash(network, cfg),
    request.splToken ? mintProgram(network, cfg, request.splToken) : undefined,
  ]);
  const token = program && { program, decimals: currencyOf(request.splToken!)!.decimals };
  return transferTransaction(request, address(payer), { ...lifetime, ...(token && { token }) });
}
