import 'server-only';
/**
 * Tron collections (docs/decisions/086): each deposit address's TRC-20 balance to the merchant's
 * treasury, with energy lent by the merchant's staked TRX or, without enough stake, TRX burned for
 * it, every price read from the node when the plan is prepared (lib/chains tronCollectionNode).
 * The gateway prepares, broadcasts what the signer signed, and follows each step on chain; it
 * never sees a private key. Balances are an account chain's: asked of the token contract
 * (`balanceOf`) for every address of the merchant that received the token.
 */
import { randomUUID } from 'node:crypto';
import {
  liveChainConfig,
  networkFor,
  requiredConfirmations,
  tronCollectionNode,
  type TronCollectionNode,
  type TronCollectionSteps,
} from '../chains';
import type { Queryable } from '../db';
import type { Mode, TronCollectionPlan } from '../protocol';
import { accountDeposits, type AccountDeposit } from './account-deposits';
import { CURSOR_HEIGHT } from './collections';
import { CollectionRefused } from './errors';
import { decideTronStep, tronPlanStatus } from './lifecycle';
import { feePayerOf } from './fee-payers';
import { treasuryOf } from './treasury';

/** The deposit chain of Tron (lib/chains/derivation.ts: BIP 44, coin type 195). */
const DEPOSIT_CHAIN = "m/44'/195'/0'/0";
/** Most addresses one plan collects: each is up to four transactions, signed and broadcast one by one. */
const MAX_ADDRESSES = 200;

export interface PrepareTronCollection {
  merchantId: string;
  mode: Mode;
  currency: string;
  /** The merchant's account holding staked TRX, and its path in the merchant's seed (the signer's `resourcePath`). */
  resourceAccount: { address: string; path: string };
  /** Addresses holding less (base units) are left for a later plan. */
  minimum?: bigint;
  now?: Date;
}

function nodeOf(): TronCollectionNode {
  const cfg = liveChainConfig('tron');
  if (!cfg) throw new CollectionRefused('tron is not live: set TRON_RPC_URL (docs/live-chains.md)');
  return tronCollectionNode(cfg);
}

/**
 * The most collecting one of the merchant's Tron addresses holding `currency` costs now, sun
 * (`funds/list` `costPerAddress`, docs/decisions/107, 113): read from the node without a resource
 * account, on the first address a plan would take, sending to the treasury; for TRX itself, its
 * sweep's bytes burned. Null in test mode, without a treasury or an address to collect, or when the
 * node does not answer (the page says so; nothing else waits on it).
 */
export async function tronCostPerAddress(
  db: Queryable,
  merchantId: string,
  mode: Mode,
  currency: string,
  node?: TronCollectionNode,
): Promise<bigint | null> {
  const found = networkFor(mode, 'tron')?.currencies.find((c) => c.ticker === currency);
  const cfg = liveChainConfig('tron');
  if (mode !== 'live' || !found || !cfg) return null;
  const token = found.contract ?? null;
  const treasury = await treasuryOf(db, merchantId, 'tron', mode);
  if (!treasury) return null;
  const held = await accountDeposits(db, {
    merchantId,
    mode,
    network: 'tron',
    currency,
    confirmedAt: Number.MAX_SAFE_INTEGER,
  });
  const [sample] = held.keys();
  if (sample === undefined) return null;
  // The kept fee payer (docs/decisions/099): its stake, when it lends the energy, leaves burned energy out.
  const lender = token ? (await feePayerOf(db, merchantId, 'tron', mode))?.address : undefined;
  const cost = await (node ?? tronCollectionNode(cfg))
    .costPerAddress({ token, treasury, sample, ...(lender && { lender }) })
    .catch(() => null);
  return cost?.total ?? null;
}

/** Prepares a Tron collection plan; CollectionRefused when there is nothing to collect or no treasury. */
export async function prepareTronCollection(
  db: Queryable,
  request: PrepareTronCollection,
  node: TronCollectionNode = nodeOf(),
): Promise<TronCollectionPlan> {
  return (await buildTronCollection(db, request, node)).plan;
}

/**
 * The plan, and the chain transfers it collects (every collectable transfer of its addresses: the
 * node's balance moves whole), for a plan that is stored (./account-collections.ts).
 */
export async function buildTronCollection(
  db: Queryable,
  request: PrepareTronCollection,
  node: TronCollectionNode = nodeOf(),
): Promise<{ plan: TronCollectionPlan; transfers: string[] }> {
  if (request.mode === 'test')
    throw new CollectionRefused(
      'test mode collections are not built yet: the sandbox ledger keeps no balances to move',
    );
  const network = networkFor(request.mode, 'tron');
  const token = network?.currencies.find((c) => c.ticker === request.currency.toUpperCase());
  if (!network || !token) throw new CollectionRefused(`${request.currency} is not a currency of live tron`);
  const treasury = await treasuryOf(db, request.merchantId, 'tron', request.mode);
  if (!treasury) throw new CollectionRefused('tron has no treasury: set one first');
  const [cursor] = await CURSOR_HEIGHT.run(db, { network: 'tron', mode: request.mode });
  if (!cursor) throw new CollectionRefused('the tron watcher has not scanned yet');
  const confirmedAt = Number(cursor.height) - requiredConfirmations(request.mode, network) + 1;
  const held = await accountDeposits(db, {
    merchantId: request.merchantId,
    mode: request.mode,
    network: 'tron',
    currency: token.ticker,
    confirmedAt,
  });
  const minimum = request.minimum ?? 1n;
  if (!token.contract) return buildTrxCollection(request, node, { held, treasury, minimum, ticker: token.ticker });
  const deposits = [];
  const transfers: string[] = [];
  for (const [address, rows] of held) {
    const amount = await node.tokenBalance(token.contract, address);
    if (amount >= minimum && amount > 0n) {
      deposits.push({ address, path: `${DEPOSIT_CHAIN}/${rows[0]!.derivation_index}`, amount });
      transfers.push(...rows.map((r) => r.id));
    }
    if (deposits.length === MAX_ADDRESSES) break;
  }
  if (deposits.length === 0) throw new CollectionRefused(`no tron address holds ${token.ticker} to collect`);
  const steps = await node.plan({
    token: token.contract,
    treasury,
    resourceAccount: request.resourceAccount.address,
    deposits,
  });
  return { plan: tronPlanOf(request, steps, { ticker: token.ticker, token: token.contract, treasury }), transfers };
}

/**
 * A plan of TRX itself (docs/decisions/113): every address holding collectable TRX deposits, its
 * node balance less what its sweep burns, in one `sweep` each; the transfers of the addresses swept.
 */
async function buildTrxCollection(
  request: PrepareTronCollection,
  node: TronCollectionNode,
  found: { held: Map<string, AccountDeposit[]>; treasury: string; minimum: bigint; ticker: string },
): Promise<{ plan: TronCollectionPlan; transfers: string[] }> {
  const candidates = [...found.held].slice(0, MAX_ADDRESSES);
  const steps = await node.planTrx({
    treasury: found.treasury,
    deposits: candidates.map(([address, rows]) => ({ address, path: `${DEPOSIT_CHAIN}/${rows[0]!.derivation_index}` })),
    minimum: found.minimum,
  });
  if (steps.addresses.length === 0)
    throw new CollectionRefused(`no tron address holds more ${found.ticker} than sweeping it would burn`);
  const swept = new Set(steps.addresses.map((a) => a.address));
  const transfers = candidates.filter(([a]) => swept.has(a)).flatMap(([, rows]) => rows.map((r) => r.id));
  return {
    plan: tronPlanOf(request, steps, { ticker: found.ticker, token: null, treasury: found.treasury }),
    transfers,
  };
}

/** The stored plan of the node's steps: every amount in base units, as the signer reads it. */
function tronPlanOf(
  request: PrepareTronCollection,
  steps: TronCollectionSteps,
  what: { ticker: string; token: string | null; treasury: string },
): TronCollectionPlan {
  const planned = steps.addresses.map((a) => ({
    address: a.address,
    path: a.path,
    amount: a.amount.toString(),
    active: a.active,
    energy: a.energy.toString(),
    delegated: a.delegated.toString(),
    steps: a.steps.map((s) => ({
      step: s.step,
      txID: s.txID,
      rawDataHex: s.rawDataHex,
      burn: s.burn.toString(),
      status: 'prepared' as const,
      reason: null,
    })),
  }));
  const chain = liveChainConfig('tron')?.chain ?? 'mainnet';
  return {
    planId: randomUUID(),
    kind: 'collection',
    format: 'tron',
    mode: request.mode,
    network: 'tron',
    chain,
    currency: what.ticker,
    token: what.token,
    treasury: what.treasury,
    resourceAccount: request.resourceAccount,
    energySource: steps.energySource,
    prices: {
      energyFee: steps.prices.energyFee.toString(),
      transactionFee: steps.prices.transactionFee.toString(),
      createAccountFee: steps.prices.createAccountFee.toString(),
      createNewAccountFeeInSystemContract: steps.prices.createNewAccountFeeInSystemContract.toString(),
      energyFactor: steps.prices.energyFactor.toString(),
    },
    addresses: planned,
    total: steps.addresses.reduce((sum, a) => sum + a.amount, 0n).toString(),
    burn: steps.addresses
      .flatMap((a) => a.steps)
      .reduce((sum, s) => sum + s.burn, 0n)
      .toString(),
    status: 'prepared',
    expiresAt: steps.expiresAt.toISOString(),
    reason: null,
    createdAt: (request.now ?? new Date()).toISOString(),
  };
}

/**
 * Broadcasts the signer's transactions in their order; stops at the first the node refuses (the
 * steps after it depend on it) and answers how many went out, with the node's reason.
 */
export async function broadcastTronPlan(
  transactions: readonly { txID: string; transaction: string }[],
  node: TronCollectionNode = nodeOf(),
): Promise<{ broadcast: number; refused: string | null }> {
  let broadcast = 0;
  for (const t of transactions) {
    try {
      await node.broadcast(t.transaction);
    } catch (error) {
      return { broadcast, refused: `${t.txID}: ${(error as Error).message}` };
    }
    broadcast++;
  }
  return { broadcast, refused: null };
}

/**
 * The plan with each step's status as the chain has it, confirmed at the height the watcher has
 * scanned to (its cursor): a step counts as confirmed once the watcher is past it by the network's
 * confirmations.
 */
export async function settleTronPlan(
  db: Queryable,
  plan: TronCollectionPlan,
  node: TronCollectionNode = nodeOf(),
  now = new Date(),
): Promise<TronCollectionPlan> {
  const network = networkFor(plan.mode, 'tron');
  if (!network) throw new CollectionRefused('tron is not live');
  const [cursor] = await CURSOR_HEIGHT.run(db, { network: 'tron', mode: plan.mode });
  const tip = cursor ? Number(cursor.height) : -1;
  const required = requiredConfirmations(plan.mode, network);
  const expired = now.getTime() > Date.parse(plan.expiresAt);
  const items = [];
  for (const item of plan.addresses) {
    const steps = [];
    for (const step of item.steps) {
      const seen = await node.result(step.txID);
      // A block the watcher has not scanned yet is not counted: the plan moves with the watcher.
      const counted = seen && seen.height <= tip ? seen : null;
      steps.push({ ...step, ...decideTronStep(step, counted, expired && !seen, tip, required) });
    }
    items.push({ ...item, steps });
  }
  const all = items.flatMap((i) => i.steps);
  const status = tronPlanStatus(all);
  const failed = all.find((s) => s.status === 'failed');
  return {
    ...plan,
    addresses: items,
    status,
    reason: failed ? `${failed.step} ${failed.txID}: ${failed.reason}` : null,
  };
}
