import 'server-only';
/**
 * Collection plans of the account chains, EVM and Tron (docs/decisions/085, 086, 093): prepared
 * from the gateway's records (./account-deposits.ts) and the node's balances, built by the
 * networks' own planners, stored beside the PSBT plans in `collection_plans` (`format` evm or
 * tron, the plan the signer reads in `body`) with the chain transfers they collect, and moved by
 * the watcher (./collections.ts `settleCollections`) as their transfers to the treasury are seen.
 */
import { randomUUID } from 'node:crypto';
import type { Network } from '../catalog';
import { evmCollectionNode, liveChainConfig, requiredConfirmations } from '../chains';
import { EVM_DEPOSIT_CHAIN_PATH, buildEvmCollectionPlan, leftGasReturn } from '../chains/evm/transactions';
import { collectionPlans, param, sql, statement, type Database, type Queryable, type RowOf } from '../db';
import type { EvmCollectionPlan, StoredAccountPlan, TronCollectionPlan } from '../protocol';
import { accountDeposits } from './account-deposits';
import {
  CURSOR_HEIGHT,
  INSERT_INPUTS,
  INSERT_PLAN,
  PLAN_INPUTS,
  type PlanWrite,
  type PrepareCollection,
} from './collections';
import { CollectionRefused } from './errors';
import { DEFAULT_FEE_PAYER_PATH, feePayerOf, type FeePayer } from './fee-payers';
import { gasLeftRows } from './gas-left';
import { buildTronCollection } from './tron-collections';
import { treasuryOf } from './treasury';

/** Most addresses one EVM plan collects: its transactions are signed and broadcast in one sitting. */
const MAX_EVM_ADDRESSES = 500;

/** Whether `network` is collected by an account-chain plan. */
export function isAccountPlanNetwork(network: Network): boolean {
  return network.family === 'evm' || network.family === 'tron';
}

/**
 * The currency a plan of `network` collects: the one asked for (undefined when the network has no
 * such currency), else on an account chain its first token (what orders there are mostly paid in),
 * else its coin.
 */
export function collectedCurrency(
  network: Network,
  asked: string | undefined,
): Network['currencies'][number] | undefined {
  if (asked !== undefined) return network.currencies.find((c) => c.ticker === asked.toUpperCase());
  return (isAccountPlanNetwork(network) && network.currencies.find((c) => c.contract)) || network.currencies[0];
}

/**
 * Prepares and stores the plan of an EVM or Tron network: every address of the merchant holding
 * confirmed, uncollected deposits of the currency (at least `minimum` on the node), its balance to
 * the treasury. The plan, its transfers and the caller's write (the API's nonce, the audit entry)
 * commit together.
 */
export async function prepareAccountCollection(
  db: Database,
  network: Network,
  request: PrepareCollection,
  write: PlanWrite,
): Promise<StoredAccountPlan> {
  if (request.mode === 'test')
    throw new CollectionRefused(
      'test mode collections are not built yet: the sandbox ledger keeps no balances to move (docs/decisions/084)',
    );
  const cfg = liveChainConfig(network.name);
  if (!cfg) throw new CollectionRefused(`${network.name} is not live: it has no node configured`);
  const treasury = await treasuryOf(db, request.merchantId, network.name, request.mode);
  if (!treasury) throw new CollectionRefused(`no treasury is set for ${network.name}: set one first`);
  const currency = collectedCurrency(network, request.currency);
  if (!currency) throw new CollectionRefused(`${request.currency} is not a currency of ${network.name}`);
  const [cursor] = await CURSOR_HEIGHT.run(db, { network: network.name, mode: request.mode });
  if (!cursor) throw new CollectionRefused(`the ${network.name} watcher has not scanned a block yet`);
  const confirmedAt = Number(cursor.height) - requiredConfirmations(request.mode, network) + 1;

  // The fee payer named in the request, else the one kept in the merchant's settings (docs/decisions/099).
  const feePayer =
    request.feePayer ?? (await feePayerOf(db, request.merchantId, network.name, request.mode)) ?? undefined;
  if (!feePayer)
    throw new CollectionRefused(
      network.family === 'tron'
        ? 'a Tron plan needs feePayer: the account of your seed holding staked TRX, and its path; name it, or keep it on the Funds page (docs/collections.md)'
        : `an ${network.name} plan needs feePayer: your gas payer's address and path, ${DEFAULT_FEE_PAYER_PATH.evm} by default; name it, or keep it on the Funds page (docs/collections.md)`,
    );
  let stored: { plan: EvmCollectionPlan | TronCollectionPlan; transfers: string[]; feeRate: bigint; total: bigint };
  if (network.family === 'tron') {
    const built = await buildTronCollection(db, {
      merchantId: request.merchantId,
      mode: request.mode,
      currency: currency.ticker,
      resourceAccount: feePayer,
      ...(request.minimum !== undefined && { minimum: request.minimum }),
    });
    stored = { ...built, feeRate: BigInt(built.plan.prices.energyFee), total: BigInt(built.plan.total) };
  } else {
    stored = await buildEvm(db, network, { ...request, feePayer }, treasury, currency, confirmedAt);
  }
  const { plan, transfers } = stored;
  await db.transaction(async (tx) => {
    await INSERT_PLAN.run(tx, {
      id: plan.planId,
      merchantId: request.merchantId,
      mode: request.mode,
      network: network.name,
      currency: currency.ticker,
      treasury,
      masterFingerprint: null,
      feeRate: stored.feeRate.toString(),
      // What the plan collects of its currency; the network's fee is the fee payer's, in the native coin, in `body`.
      total: stored.total.toString(),
      fee: '0',
      sent: stored.total.toString(),
      psbt: null,
      txid: null,
      kind: 'collection',
      refundId: null,
      refund: null,
      format: network.family,
      body: JSON.stringify(plan),
    });
    const inserted = await INSERT_INPUTS.run(tx, {
      planId: plan.planId,
      ...PLAN_INPUTS.values(transfers.map((id) => ({ transfer_id: id }))),
    });
    if (inserted.length !== transfers.length)
      throw new CollectionRefused('another plan took some of these deposits at the same moment: prepare again');
    await write.within?.(tx, plan.planId);
  });
  return { ...plan, reason: null } as StoredAccountPlan;
}

async function buildEvm(
  db: Database,
  network: Network,
  request: PrepareCollection & { feePayer: FeePayer },
  treasury: string,
  currency: Network['currencies'][number],
  confirmedAt: number,
) {
  const node = evmCollectionNode(network, liveChainConfig(network.name)!);
  const held = await accountDeposits(db, {
    merchantId: request.merchantId,
    mode: request.mode,
    network: network.name,
    currency: currency.ticker,
    confirmedAt,
  });
  const paid = [...held].slice(0, MAX_EVM_ADDRESSES);
  if (paid.length === 0) throw new CollectionRefused(`nothing to collect on ${network.name}`);
  // A token plan sweeps by EIP-7702; the coin moves by each address's own transfer, its fee paid from it.
  const token = currency.contract ? currency : null;
  // A token plan also sends back the gas earlier fund-then-transfers left (docs/decisions/113); a
  // plan of the coin has those funds among its own deposits already.
  const leftOn = token
    ? [
        ...((await gasLeftRows(db, { merchantId: request.merchantId, mode: request.mode, network: network.name })).get(
          network.name,
        ) ?? []),
      ].filter(([address]) => !held.has(address))
    : [];
  const candidates = [...paid, ...leftOn.slice(0, MAX_EVM_ADDRESSES - paid.length)];
  const gasLeft = new Set(leftOn.map(([address]) => address.toLowerCase()));
  const holdings = (
    await node.holdings(
      candidates.map(([address, rows]) => ({
        address,
        path: `${EVM_DEPOSIT_CHAIN_PATH}/${rows[0]!.derivation_index}`,
        personal: rows[0]!.kind === 'PERSONAL',
      })),
      token ? [token.contract!] : [],
    )
  ).map((h) => (gasLeft.has(h.address.toLowerCase()) ? { ...h, gasLeft: true } : h));
  const minimum = request.minimum ?? 1n;
  const balanceOf = (h: (typeof holdings)[number]) =>
    token ? (h.tokens.get(token.contract!.toLowerCase()) ?? 0n) : h.native;
  const worth = holdings.filter((h) => !h.gasLeft && balanceOf(h) >= minimum && balanceOf(h) > 0n);
  if (worth.length === 0) throw new CollectionRefused(`no ${network.name} address holds ${currency.ticker} to collect`);
  const fees = await node.fees();
  // Gas left goes back only when worth more than its own transfer at this plan's fee cap.
  worth.push(...holdings.filter((h) => h.gasLeft && leftGasReturn(h.native, fees.maxFeePerGas) !== null));
  const plan = buildEvmCollectionPlan({
    planId: randomUUID(),
    mode: request.mode,
    network: {
      name: network.name,
      chainId: network.chainId!,
      nativeTicker: network.currencies.find((c) => !c.contract)!.ticker,
      ...(network.txGasCap !== undefined && { txGasCap: BigInt(network.txGasCap) }),
    },
    tokens: token ? [{ ticker: token.ticker, contract: token.contract!, decimals: token.decimals }] : [],
    treasury,
    gasPayer: { ...request.feePayer, nonce: await node.nonce(request.feePayer.address) },
    // A token plan also moves the coin its addresses hold (the sweeper pays both); it counts the token.
    deposits: worth.map((h) => (token ? h : { ...h, tokens: new Map() })),
    fees,
    blockGasLimit: fees.blockGasLimit,
    method: token ? 'sweep' : 'transfers',
    createdAt: new Date().toISOString(),
  });
  if (!plan)
    throw new CollectionRefused(`no ${network.name} address holds enough ${currency.ticker} to pay its own fee`);
  const planned = new Set(plan.items.map((i) => i.address.toLowerCase()));
  const transfers = candidates
    .filter(([a]) => planned.has(a.toLowerCase()))
    .flatMap(([, rows]) => rows.map((r) => r.id));
  const total = plan.items
    .flatMap((i) => i.balances)
    .filter((b) => b.currency === currency.ticker)
    .reduce((sum, b) => sum + BigInt(b.amount), 0n);
  return { plan, transfers, feeRate: fees.maxFeePerGas, total };
}

/** A stored account-chain plan as `collections/get` answers it: the plan the signer reads, with the watcher's status. */
export function storedAccountPlan(row: RowOf<typeof collectionPlans>): StoredAccountPlan {
  const body = row.body as EvmCollectionPlan | TronCollectionPlan;
  if (row.format === 'tron') {
    const plan = body as TronCollectionPlan;
    // The plan moves as a whole on the watcher's sighting of its transfers; its steps say the same.
    return {
      ...plan,
      status: row.status,
      reason: row.reason,
      addresses: plan.addresses.map((a) => ({
        ...a,
        steps: a.steps.map((s) => ({ ...s, status: row.status, reason: row.reason })),
      })),
    };
  }
  return { ...(body as EvmCollectionPlan), status: row.status, reason: row.reason };
}

export const OPEN_EVM_PLANS = statement<
  { id: string; body: EvmCollectionPlan },
  { network: string; mode: 'live' | 'test' }
>(
  sql`select ${collectionPlans.id} as id, ${collectionPlans.body} as body from ${collectionPlans}
    where ${collectionPlans.network} = ${param('network')} and ${collectionPlans.mode} = ${param('mode')}
      and ${collectionPlans.format} = 'evm' and ${collectionPlans.kind} = 'collection'
      and ${collectionPlans.status} in ('prepared', 'broadcast')`,
);

/** Each sender of `transactions` with the highest nonce they give it, the gas payer's first. */
export function lastNonces(transactions: readonly { from: string; nonce: number }[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const t of transactions) {
    const from = t.from.toLowerCase();
    last.set(from, Math.max(last.get(from) ?? -1, t.nonce));
  }
  return last;
}

/**
 * The open EVM plans of a live network whose nonces are all used at block `height` (the height the
 * watcher's step scans to, read before its transaction opens): each sender of the plan's
 * transactions has sent at least up to the last nonce the plan gives it. Had the plan's own
 * transactions taken them, every deposit would be collected in the blocks scanned; so with one not
 * collected, another transaction took a nonce and the plan can never be mined whole
 * (./lifecycle.ts `decideAccountPlan`, docs/decisions/099). Senders are asked in order and the
 * asking stops at the first with a nonce still free: usually the gas payer, one call per plan. A
 * node that does not answer makes no plan stale this step.
 */
export async function evmPlansWithNoncesUsed(
  db: Queryable,
  network: Network,
  mode: 'live' | 'test',
  height: number,
): Promise<ReadonlySet<string>> {
  const cfg = mode === 'live' && network.family === 'evm' ? liveChainConfig(network.name) : undefined;
  if (!cfg) return new Set();
  const plans = await OPEN_EVM_PLANS.run(db, { network: network.name, mode });
  if (plans.length === 0) return new Set();
  const node = evmCollectionNode(network, cfg);
  const used = new Set<string>();
  try {
    for (const plan of plans) {
      let all = true;
      for (const [sender, last] of lastNonces(plan.body.transactions))
        if ((await node.nonceAt(sender, height)) <= last) {
          all = false;
          break;
        }
      if (all) used.add(plan.id);
    }
  } catch {
    // The node is away: the next step asks again.
  }
  return used;
}
