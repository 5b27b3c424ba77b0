import 'server-only';
/**
 * Funds and collections of the Bitcoin-family networks: what the merchant's deposit outputs hold,
 * and plans that move them to its treasury in one transaction for the signer (docs/decisions/052).
 * The gateway prepares and watches; it never sees a private key.
 */
import { randomUUID } from 'node:crypto';
import { base64, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { poolOf } from '../addresses';
import { GAS, batchGasLimit, sweepGasFor } from '../chains/evm/transactions';
import type { Network } from '../catalog';
import {
  BlockNotAvailable,
  collectionNodeFor,
  collectionNodeOf,
  depositKeyDescriptor,
  evmCollectionNode,
  liveChainConfig,
  networkFor,
  requiredConfirmations,
  testKeyDescriptor,
  type ChainTransfer,
  type CollectionNode,
} from '../chains';
import {
  buildCollectionPsbt,
  buildRawCollection,
  isRawCoin,
  estimateVsize,
  fingerprintHex,
  formatPath,
  isUtxoCoin,
  parseKeyDescriptor,
  type KeyDescriptor,
} from '../chains/utxo/transactions';
import {
  addresses,
  bare,
  chainCursors,
  chainTransfers,
  collectionPlanInputs,
  collectionPlans,
  columnsOf,
  insertValues,
  param,
  partialSpends,
  placeholders,
  sql,
  statement,
  unnest,
  type Database,
  type Queryable,
  type RowOf,
} from '../db';
import { formatUnits } from '../money';
import {
  isUuid,
  type AnyCollectionPlan,
  type CollectionPlan,
  type EventType,
  type Mode,
  type MoneyOutPlan,
  type PlanKind,
  type PlanRefund,
  type PlanStatus,
  type PlanSummary,
  type RawCollectionPlan,
  type RawRefundPlan,
  type AnyRefundPlan,
  type EvmRefundPlan,
  type SolanaRefundPlan,
  type StoredAccountPlan,
  type TronRefundPlan,
  type XrplRefundPlan,
} from '../protocol';
import { publishEvents } from '../webhooks';
import { isAccountPlanNetwork, prepareAccountCollection, storedAccountPlan } from './account-collections';
import { CollectionRefused } from './errors';
import { storedEvmRefundPlan } from './evm-refund-plans';
import { storedTronRefundPlan } from './tron-refund-plans';
import { storedXrplRefundPlan, type XrplRefundSighting } from './xrpl-refund-plans';
import { SENT_BY_A_GAS_PAYER } from './gas-left';
import {
  decideAccountPlan,
  decideEvmRefundPlan,
  decidePlan,
  decideTronRefundPlan,
  isFinalPlanStatus,
  type EvmRefundSighting,
  type PlanDecision,
  type TronStepSighting,
} from './lifecycle';
import { treasuryOf } from './treasury';
import { spendBurnedFunds } from './plan-burns';
import { spendSweptCoin, type SweptCoin } from './swept-coin';
import { tronCostPerAddress } from './tron-collections';
import { settleSolanaRefundPlans, storedSolanaRefundPlan } from './solana-refund-plans';

/** Most outputs one plan spends: a transaction of 500 P2WPKH inputs is about 34 kvB, well under the standard 100 kvB. */
const MAX_INPUTS = 500;

export interface FundsLine {
  network: string;
  currency: string;
  /** Base units held in deposit outputs not spent yet. */
  total: bigint;
  addresses: number;
  outputs: number;
  /** The fee to collect them all at the node's current estimate; null without one. */
  estimatedCost: bigint | null;
  feeRate: bigint | null;
  /**
   * EVM and Tron: the most collecting one address costs, base units of the network's coin, at the
   * node's fee cap (EVM) or prices (Tron); null elsewhere or without them.
   */
  costPerAddress: bigint | null;
}

const FUNDS = statement<
  { network: string; currency: string; total: string; addresses: string; outputs: string },
  { merchantId: string; mode: Mode }
>(sql`select ${chainTransfers.network} as network, ${chainTransfers.currency} as currency,
    -- Less what a transaction spent of a row without spending it whole (./plan-burns.ts).
    sum(${chainTransfers.amount} - coalesce((select sum(${partialSpends.amount}) from ${partialSpends}
      where ${partialSpends.transferId} = ${chainTransfers.id}), 0))::text as total,
    count(distinct ${chainTransfers.addressId})::text as addresses, count(*)::text as outputs
  from ${chainTransfers}
  where ${chainTransfers.merchantId} = ${param('merchantId')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.spentByTx} is null and ${chainTransfers.dropped} = false and ${chainTransfers.blockHeight} is not null
    -- A gas payer's fund is no payment: the gas it left is a line of its own (./gas-left.ts).
    and not ${SENT_BY_A_GAS_PAYER}
  group by ${chainTransfers.network}, ${chainTransfers.currency}
  order by ${chainTransfers.network}, ${chainTransfers.currency}`);

/**
 * What the merchant's deposit outputs hold, per network and currency, from what the watcher
 * recorded in and out: outputs in a block and not spent by a scanned block; on EVM and Tron,
 * deposits in a block that no plan's transfer to the treasury collected yet. XRP and Solana are
 * left out: the watcher records nothing leaving them.
 */
export async function fundsOf(db: Queryable, merchantId: string, mode: Mode): Promise<FundsLine[]> {
  const rows = await FUNDS.run(db, { merchantId, mode });
  const lines: FundsLine[] = [];
  for (const row of rows) {
    const network = networkFor(mode, row.network);
    if (network && isAccountPlanNetwork(network)) {
      // Deposits the watcher saw and no confirmed plan collected yet (a plan's transfers to the treasury mark them).
      const addressCount = Number(row.addresses);
      lines.push({
        network: row.network,
        currency: row.currency,
        total: BigInt(row.total),
        addresses: addressCount,
        outputs: Number(row.outputs),
        feeRate: null,
        estimatedCost: null,
        costPerAddress:
          mode !== 'live'
            ? null
            : network.family === 'tron'
              ? await tronCostPerAddress(db, merchantId, mode, row.currency)
              : await evmCostPerAddress(network, row.currency, addressCount),
      });
      continue;
    }
    if (!isUtxoCoin(row.network)) continue;
    const outputs = Number(row.outputs);
    const node = mode === 'live' ? collectionNodeOf(liveChainConfig(row.network)) : undefined;
    const feeRate = node ? await node.feeRate(6).catch(() => null) : null;
    const script = row.network === 'dogecoin' || row.network === 'bitcoincash' ? 'pkh' : 'wpkh';
    lines.push({
      network: row.network,
      currency: row.currency,
      total: BigInt(row.total),
      addresses: Number(row.addresses),
      outputs,
      feeRate,
      estimatedCost: feeRate === null ? null : BigInt(estimateVsize(script, outputs, 22)) * feeRate,
      costPerAddress: null,
    });
  }
  return lines;
}

/**
 * What the network would take to send one refund (one input, the refund and the change) at the
 * node's current estimate for six blocks, for the refund form (docs/decisions/092): live
 * Bitcoin-family networks with a node; null elsewhere (test mode, other families: a refund there
 * is sent from the merchant's own wallet, which sets its fee) and when the node has no estimate.
 */
export async function refundFeeEstimate(network: string, mode: Mode): Promise<{ feeRate: bigint; fee: bigint } | null> {
  if (mode !== 'live' || !isUtxoCoin(network)) return null;
  const node = collectionNodeOf(liveChainConfig(network));
  const feeRate = node ? await node.feeRate(6).catch(() => null) : null;
  if (feeRate === null || feeRate <= 0n) return null;
  const script = network === 'dogecoin' || network === 'bitcoincash' ? 'pkh' : 'wpkh';
  return { feeRate, fee: BigInt(estimateVsize(script, 1, 22, 22)) * feeRate };
}

/**
 * What collecting one of `count` addresses holding `currency` costs on an EVM network, in wei, by
 * the planner's own bounds (lib/chains/evm/transactions `sweepGasFor`, `GAS`) at the fee cap the
 * plan would carry now: a token's share of the sweeps and clears, a coin's own transfer. Null off
 * EVM, or when the node does not answer (the page says so; nothing else waits on it).
 */
async function evmCostPerAddress(network: Network, currency: string, count: number): Promise<bigint | null> {
  const cfg = liveChainConfig(network.name);
  if (network.family !== 'evm' || !cfg || count === 0) return null;
  const fees = await evmCollectionNode(network, cfg)
    .fees()
    .catch(() => null);
  if (!fees) return null;
  const token = network.currencies.find((c) => c.ticker === currency)?.contract;
  const limit = batchGasLimit(
    network.txGasCap === undefined ? undefined : BigInt(network.txGasCap),
    fees.blockGasLimit,
  );
  const gas = token ? sweepGasFor(count, limit) / BigInt(count) : GAS.transaction;
  return gas * fees.maxFeePerGas;
}

export type Collectable = Pick<
  RowOf<typeof chainTransfers>,
  'id' | 'tx_hash' | 'output_index' | 'amount' | 'block_hash'
> &
  Pick<RowOf<typeof addresses>, 'derivation_index' | 'address'>;

export const COLLECTABLE = statement<
  Collectable,
  {
    merchantId: string;
    mode: Mode;
    network: string;
    currency: string;
    minimum: string;
    confirmedAt: number;
    keyFingerprint: string;
    limit: number;
  }
>(sql`select ${columnsOf(chainTransfers, ['id', 'tx_hash', 'output_index', 'amount', 'block_hash'])},
    ${addresses.derivationIndex} as derivation_index, ${addresses.address} as address
  from ${chainTransfers} join ${addresses} on ${addresses.id} = ${chainTransfers.addressId}
  where ${chainTransfers.merchantId} = ${param('merchantId')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.network} = ${param('network')} and ${chainTransfers.currency} = ${param('currency')}
    and ${chainTransfers.spentByTx} is null and ${chainTransfers.dropped} = false
    and ${chainTransfers.blockHeight} <= ${param('confirmedAt')} and ${chainTransfers.amount} >= ${param('minimum')}::numeric
    and ${addresses.keyFingerprint} = ${param('keyFingerprint')} and ${addresses.derivationIndex} >= 0
    and not exists (select 1 from ${collectionPlanInputs} where ${collectionPlanInputs.transferId} = ${chainTransfers.id} and ${collectionPlanInputs.open})
  order by ${chainTransfers.blockHeight}, ${chainTransfers.txHash}, ${chainTransfers.outputIndex}
  limit ${param('limit')}`);

export const CURSOR_HEIGHT = statement<{ height: number }, { network: string; mode: Mode }>(
  sql`select ${chainCursors.height} as height from ${chainCursors} where ${chainCursors.network} = ${param('network')} and ${chainCursors.mode} = ${param('mode')}`,
);

const PLAN = placeholders([
  'id',
  'merchantId',
  'mode',
  'network',
  'currency',
  'treasury',
  'masterFingerprint',
  'feeRate',
  'total',
  'fee',
  'sent',
  'psbt',
  'txid',
  'kind',
  'refundId',
  'refund',
  'format',
  'body',
]);
const PLAN_INSERT = insertValues([
  [collectionPlans.id, PLAN.id],
  [collectionPlans.merchantId, PLAN.merchantId],
  [collectionPlans.mode, PLAN.mode],
  [collectionPlans.network, PLAN.network],
  [collectionPlans.currency, PLAN.currency],
  [collectionPlans.treasury, PLAN.treasury],
  [collectionPlans.masterFingerprint, PLAN.masterFingerprint],
  [collectionPlans.feeRate, PLAN.feeRate],
  [collectionPlans.total, PLAN.total],
  [collectionPlans.fee, PLAN.fee],
  [collectionPlans.sent, PLAN.sent],
  [collectionPlans.psbt, PLAN.psbt],
  [collectionPlans.txid, PLAN.txid],
  [collectionPlans.kind, PLAN.kind],
  [collectionPlans.refundId, PLAN.refundId],
  [collectionPlans.refund, sql`${PLAN.refund}::jsonb`],
  [collectionPlans.format, PLAN.format],
  [collectionPlans.body, sql`${PLAN.body}::jsonb`],
]);
/** The one insert of a plan, of every format and kind: a PSBT plan has no `body`, an account-chain plan no `psbt`. */
export const INSERT_PLAN = statement<unknown, Record<keyof typeof PLAN, unknown>>(
  sql`insert into ${collectionPlans} (${PLAN_INSERT.columns}) values (${PLAN_INSERT.values})`,
);
export const PLAN_INPUTS = unnest('i', { transfer_id: collectionPlanInputs.transferId });
/** An output already in an open plan (a concurrent prepare) conflicts on the partial unique index and is not inserted. */
export const INSERT_INPUTS = statement<unknown, { planId: string }>(sql`insert into ${collectionPlanInputs}
    (${bare(collectionPlanInputs.planId)}, ${bare(collectionPlanInputs.transferId)})
  select ${param('planId')}, ${PLAN_INPUTS.names} from ${PLAN_INPUTS.from}
  on conflict do nothing returning 1`);

/** A refund's plan that may still be signed or seen (the partial unique index allows one). */
export const OPEN_REFUND_PLAN = statement<{ id: string }, { refundId: string }>(
  sql`select ${collectionPlans.id} as id from ${collectionPlans}
  where ${collectionPlans.refundId} = ${param('refundId')} and ${collectionPlans.status} in ('prepared', 'broadcast')`,
);

/** The id of the plan that may still pay refund `refundId` (prepared, or broadcast and not yet final); null when none. */
export async function openRefundPlan(db: Queryable, refundId: string): Promise<string | null> {
  const [open] = await OPEN_REFUND_PLAN.run(db, { refundId });
  return open?.id ?? null;
}

/** Whether an error is the unique index's refusal of a second open plan for one refund. */
export function isSecondOpenPlan(error: unknown): boolean {
  const text = `${(error as { message?: string })?.message ?? ''} ${(error as { constraint?: string })?.constraint ?? ''}`;
  return text.includes('collection_plans_refund_open');
}

/**
 * The key (with its origin) the merchant's deposit addresses of a UTXO network come from now, and
 * its pool fingerprint: the merchant's own key when it set one (docs/decisions/083), else the
 * gateway's `<NETWORK>_XPUB` live, the public test seed's account key in test mode
 * (docs/decisions/097). A plan spends outputs of that key only.
 */
export async function keyOf(
  db: Queryable,
  network: Network,
  mode: Mode,
  merchantId: string,
): Promise<{ key: KeyDescriptor; keyFingerprint: string }> {
  const pool = await poolOf(db, network, mode, merchantId);
  if (pool.ownKey !== null) return { key: depositKeyDescriptor(pool.ownKey), keyFingerprint: pool.keyFingerprint };
  // Test mode's addresses come from the public test seed, whose origin is known (docs/decisions/097).
  const text = mode === 'test' ? testKeyDescriptor(network) : liveChainConfig(network.name)?.keyDescriptor;
  if (!text)
    throw new CollectionRefused(
      `${network.name}: the key has no origin; set your own as a descriptor, wpkh([fingerprint/84h/.../0h]xpub.../0/*) (docs/collections.md)`,
    );
  return { key: parseKeyDescriptor(text), keyFingerprint: pool.keyFingerprint };
}

/**
 * What the caller writes in the transaction that stores a plan (the API's nonce, an audit entry):
 * a plan refused, or a write of the caller's refused, leaves nothing behind.
 */
export interface PlanWrite {
  within?: (tx: Queryable, planId: string) => Promise<void>;
}

export interface PrepareCollection {
  merchantId: string;
  mode: Mode;
  network: string;
  /** Base units per virtual byte; the node's estimate when absent. */
  feeRate?: bigint;
  /** Outputs below this many base units stay where they are (dust that would cost more than it holds). */
  minimum?: bigint;
  /** Account chains: the currency to collect (the network's first token when absent). */
  currency?: string;
  /**
   * Account chains: the account of the merchant's seed that pays the network's fees, and its path:
   * the gas payer (EVM), the resource account holding staked TRX (Tron). Never a key.
   */
  feePayer?: { address: string; path: string };
}

/**
 * What every plan of a Bitcoin-family network stands on: the key with its origin, the coin and chain
 * the transaction code names, the fee rate (the one given, else the node's estimate for six blocks)
 * and the watcher's height. Refused without a fee rate or before the watcher's first block.
 */
export async function planFooting(
  db: Queryable,
  network: Network,
  mode: Mode,
  merchantId: string,
  givenFeeRate: bigint | undefined,
): Promise<{
  key: KeyDescriptor;
  keyFingerprint: string;
  coin: 'bitcoin' | 'litecoin';
  chain: NonNullable<Network['chain']>;
  node: CollectionNode;
  feeRate: bigint;
  cursor: { height: number };
}> {
  const { key, keyFingerprint } = await keyOf(db, network, mode, merchantId);
  const node = collectionNodeFor(db, mode, network);
  if (!node) throw new CollectionRefused(`${network.name} has no node configured`);
  const feeRate = givenFeeRate ?? (await node.feeRate(6));
  if (feeRate === null || feeRate <= 0n)
    throw new CollectionRefused(`the ${network.name} node has no fee estimate: give a fee rate (base units per vbyte)`);
  const [cursor] = await CURSOR_HEIGHT.run(db, { network: network.name, mode });
  if (!cursor) throw new CollectionRefused(`the ${network.name} watcher has not scanned a block yet`);
  return {
    key,
    keyFingerprint,
    coin: network.name as 'bitcoin' | 'litecoin',
    chain: network.chain ?? 'mainnet',
    node,
    feeRate,
    cursor,
  };
}

/** What a raw plan keeps in `body` (docs/decisions/118, 121): its unsigned transaction and what the signer checks of each input. */
export interface RawPlanBody {
  unsignedTx: string;
  inputs: { txid: string; vout: number; amount: string; script: string; path: string; previousTx: string }[];
}

/**
 * Prepares a plan that moves every confirmed, unplanned output of the network (above the minimum)
 * to the treasury: a PSBT with each input's derivation and previous transaction (bitcoin,
 * litecoin), or the unsigned raw transaction with the same of each input (dogecoin, bitcoincash:
 * `SIGNING_FORMAT`, docs/decisions/118). Inputs of a plan still open are left out, so two plans
 * never spend the same output; what arrives later is in the next plan.
 */
export async function prepareCollection(
  db: Database,
  request: PrepareCollection,
  write: PlanWrite = {},
): Promise<CollectionPlan | RawCollectionPlan> {
  const network = networkFor(request.mode, request.network);
  if (!network || !isUtxoCoin(network.name))
    throw new CollectionRefused(`${request.network} is not a Bitcoin-family network of ${request.mode} mode`);
  const rawCoin = isRawCoin(network.name) ? network.name : null;
  const treasury = await treasuryOf(db, request.merchantId, network.name, request.mode);
  if (!treasury) throw new CollectionRefused(`no treasury is set for ${network.name}: set one first`);
  const { key, keyFingerprint, coin, chain, node, feeRate, cursor } = await planFooting(
    db,
    network,
    request.mode,
    request.merchantId,
    request.feeRate,
  );
  const required = requiredConfirmations(request.mode, network);
  const currency = network.currencies[0]!.ticker;
  const rows = await COLLECTABLE.run(db, {
    merchantId: request.merchantId,
    mode: request.mode,
    network: network.name,
    currency,
    minimum: (request.minimum ?? 1n).toString(),
    confirmedAt: cursor.height - required + 1,
    keyFingerprint,
    limit: MAX_INPUTS,
  });
  if (rows.length === 0) throw new CollectionRefused(`nothing to collect on ${network.name}`);
  let previous: Map<string, string>;
  try {
    previous = await node.previousTransactions(rows.map((r) => ({ txid: r.tx_hash, blockHash: r.block_hash ?? '' })));
  } catch (error) {
    if (error instanceof BlockNotAvailable)
      throw new CollectionRefused(`${error.message}: a collection needs the full previous transaction of every input`);
    throw error;
  }
  const draft = {
    chain,
    key: { ...key, chain: key.chain as HDKey },
    treasury,
    feeRate,
    inputs: rows.map((r) => ({
      txid: r.tx_hash,
      vout: r.output_index,
      amount: BigInt(r.amount),
      index: Number(r.derivation_index),
      previousTx: previous.get(r.tx_hash)!,
    })),
  };
  let built: { fee: bigint; sent: bigint; feeRate: bigint; psbt: string | null; body: RawPlanBody | null };
  try {
    if (rawCoin) {
      const raw = buildRawCollection({ ...draft, coin: rawCoin });
      const inputs = raw.plan.inputs.map((i) => ({ ...i, amount: i.amount.toString() }));
      built = { ...raw, psbt: null, body: { unsignedTx: raw.plan.transaction, inputs } };
    } else {
      const psbt = buildCollectionPsbt({ ...draft, coin });
      built = { ...psbt, feeRate, psbt: base64.encode(psbt.psbt), body: null };
    }
  } catch (error) {
    throw new CollectionRefused((error as Error).message);
  }
  // Segwit inputs: the id does not cover signatures, so the plan knows its transaction's id now.
  const txid = built.psbt !== null && key.script === 'wpkh' ? Transaction.fromPSBT(base64.decode(built.psbt)).id : null;
  const id = randomUUID();
  const total = built.sent + built.fee;
  await db.transaction(async (tx) => {
    await INSERT_PLAN.run(tx, {
      id,
      merchantId: request.merchantId,
      mode: request.mode,
      network: network.name,
      currency,
      treasury,
      masterFingerprint: fingerprintHex(key.masterFingerprint),
      feeRate: built.feeRate.toString(),
      total: total.toString(),
      fee: built.fee.toString(),
      sent: built.sent.toString(),
      psbt: built.psbt,
      txid,
      kind: 'collection',
      refundId: null,
      refund: null,
      format: built.body ? 'raw' : 'psbt',
      body: built.body ? JSON.stringify(built.body) : null,
    });
    const inserted = await INSERT_INPUTS.run(tx, {
      planId: id,
      ...PLAN_INPUTS.values(rows.map((r) => ({ transfer_id: r.id }))),
    });
    if (inserted.length !== rows.length)
      throw new CollectionRefused('another plan took some of these outputs at the same moment: prepare again');
    await write.within?.(tx, id);
  });
  return (await collectionPlan(db, request.merchantId, request.mode, id)) as CollectionPlan | RawCollectionPlan;
}

/**
 * A collection plan of any network (`collections/prepare`, the Funds page): an account chain's
 * (EVM, Tron; ./account-collections.ts) or a Bitcoin-family PSBT (`prepareCollection`).
 */
export async function prepareAnyCollection(
  db: Database,
  request: PrepareCollection,
  write: PlanWrite = {},
): Promise<AnyCollectionPlan> {
  const network = networkFor(request.mode, request.network);
  if (network && isAccountPlanNetwork(network)) return prepareAccountCollection(db, network, request, write);
  return prepareCollection(db, request, write);
}

type PlanRow = RowOf<typeof collectionPlans>;
const PLAN_BY_ID = statement<PlanRow, { id: string; merchantId: string; mode: Mode }>(
  sql`select * from ${collectionPlans} where ${collectionPlans.id} = ${param('id')} and ${collectionPlans.merchantId} = ${param('merchantId')} and ${collectionPlans.mode} = ${param('mode')}`,
);

/** The decimals a plan's amounts are written in: its currency's (the coin, or an account chain's token). */
function planDecimals(mode: Mode, networkName: string, ticker: string): number {
  const currencies = networkFor(mode, networkName)?.currencies ?? [];
  return (currencies.find((c) => c.ticker === ticker) ?? currencies[0])?.decimals ?? 8;
}

const INPUT_COUNT = sql`(select count(*) from ${collectionPlanInputs} where ${collectionPlanInputs.planId} = ${collectionPlans.id})::text as input_count`;
type SummaryRow = PlanRow & { input_count: string };

const PLAN_LIST = statement<
  SummaryRow,
  { merchantId: string; mode: Mode; kind: PlanKind; status: PlanStatus | null; limit: number; offset: number }
>(sql`select ${collectionPlans}.*, ${INPUT_COUNT}
  from ${collectionPlans}
  where ${collectionPlans.merchantId} = ${param('merchantId')} and ${collectionPlans.mode} = ${param('mode')}
    and ${collectionPlans.kind} = ${param('kind')}
    and (${param('status')}::text is null or ${collectionPlans.status}::text = ${param('status')}::text)
  order by ${collectionPlans.createdAt} desc, ${collectionPlans.id} desc
  limit ${param('limit')} offset ${param('offset')}`);

/** A plan as `collections/list` answers it, and as its `collection.*` events carry it. */
function planSummary(row: SummaryRow): PlanSummary {
  const decimals = planDecimals(row.mode, row.network, row.currency);
  return {
    planId: row.id,
    kind: row.kind,
    network: row.network,
    currency: row.currency,
    status: row.status,
    inputs: Number(row.input_count),
    total: formatUnits(BigInt(row.total), decimals),
    fee: formatUnits(BigInt(row.fee), decimals),
    sent: formatUnits(BigInt(row.sent), decimals),
    treasury: row.treasury,
    refundId: row.refund_id,
    txid: row.txid,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
  };
}

/** The merchant's plans of `kind` in `mode`, newest first, of one status or all (`collections/list`, the Funds page). */
export async function listMoneyOutPlans(
  db: Queryable,
  merchantId: string,
  mode: Mode,
  query: { kind: PlanKind; status?: PlanStatus; limit: number; offset: number },
): Promise<PlanSummary[]> {
  const rows = await PLAN_LIST.run(db, { merchantId, mode, ...query, status: query.status ?? null });
  return rows.map(planSummary);
}

const NEWEST_REFUND_PLAN = statement<{ id: string }, { refundId: string; merchantId: string; mode: Mode }>(
  sql`select ${collectionPlans.id} as id from ${collectionPlans}
  where ${collectionPlans.refundId} = ${param('refundId')} and ${collectionPlans.merchantId} = ${param('merchantId')}
    and ${collectionPlans.mode} = ${param('mode')}
  order by ${collectionPlans.createdAt} desc, ${collectionPlans.id} desc limit 1`,
);

/** The newest plan of the caller's refund `refundId` (any status); null when it has none or the refund is not the caller's. */
export async function newestRefundPlan(
  db: Queryable,
  merchantId: string,
  mode: Mode,
  refundId: string,
): Promise<AnyRefundPlan | null> {
  if (!isUuid(refundId)) return null;
  const [row] = await NEWEST_REFUND_PLAN.run(db, { refundId, merchantId, mode });
  return row ? ((await collectionPlan(db, merchantId, mode, row.id)) as AnyRefundPlan) : null;
}
const PLAN_INPUT_ROWS = statement<
  Collectable & Pick<RowOf<typeof chainTransfers>, 'spent_by_tx' | 'spent_at_height'>,
  { planId: string }
>(sql`select ${columnsOf(chainTransfers, ['id', 'tx_hash', 'output_index', 'amount', 'block_hash', 'spent_by_tx', 'spent_at_height'])},
    ${addresses.derivationIndex} as derivation_index, ${addresses.address} as address
  from ${collectionPlanInputs} join ${chainTransfers} on ${chainTransfers.id} = ${collectionPlanInputs.transferId}
    join ${addresses} on ${addresses.id} = ${chainTransfers.addressId}
  where ${collectionPlanInputs.planId} = ${param('planId')}
  order by ${chainTransfers.blockHeight}, ${chainTransfers.txHash}, ${chainTransfers.outputIndex}`);

/** A plan as it is kept, of each family: Bitcoin-family PSBT or raw, EVM or Tron collection, EVM, Solana, Tron or XRP Ledger refund. */
export type StoredPlan =
  | MoneyOutPlan
  | RawCollectionPlan
  | RawRefundPlan
  | StoredAccountPlan
  | EvmRefundPlan
  | SolanaRefundPlan
  | TronRefundPlan
  | XrplRefundPlan;

/** A plan of the merchant and mode (a collection or a refund), as the signer reads it; null when it is not the caller's. */
export async function collectionPlan(
  db: Queryable,
  merchantId: string,
  mode: Mode,
  id: string,
): Promise<StoredPlan | null> {
  const [row] = isUuid(id) ? await PLAN_BY_ID.run(db, { id, merchantId, mode }) : [];
  if (!row) return null;
  if (row.format === 'evm' && row.kind === 'refund') return storedEvmRefundPlan(row);
  if (row.format === 'solana') return storedSolanaRefundPlan(row);
  if (row.format === 'tron' && row.kind === 'refund') return storedTronRefundPlan(row);
  if (row.format === 'xrpl') return storedXrplRefundPlan(row);
  if (row.format !== 'psbt' && row.format !== 'raw') return storedAccountPlan(row);
  const inputs = await PLAN_INPUT_ROWS.run(db, { planId: id });
  const network = networkFor(mode, row.network);
  const decimals = planDecimals(mode, row.network, row.currency);
  const common = {
    planId: row.id,
    mode: row.mode,
    network: row.network,
    chain: network?.chain ?? 'mainnet',
    currency: row.currency,
    status: row.status,
    treasury: row.treasury,
    masterFingerprint: row.master_fingerprint!,
    total: formatUnits(BigInt(row.total), decimals),
    fee: formatUnits(BigInt(row.fee), decimals),
    feeRate: row.fee_rate,
    sent: formatUnits(BigInt(row.sent), decimals),
    txid: row.txid,
    reason: row.reason,
    acceptedAt: row.accepted_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
  if (row.format === 'raw') {
    // The transaction's own order, as the signer checks it; the address as the watcher recorded it.
    const body = row.body as RawPlanBody;
    const addressOf = new Map(inputs.map((i) => [`${i.tx_hash}:${i.output_index}`, i.address]));
    const raw = {
      ...common,
      format: 'raw' as const,
      unsignedTx: body.unsignedTx,
      inputs: body.inputs.map((i) => ({
        txid: i.txid,
        vout: i.vout,
        address: addressOf.get(`${i.txid}:${i.vout}`) ?? '',
        amount: formatUnits(BigInt(i.amount), decimals),
        path: i.path,
        script: i.script,
        previousTx: i.previousTx,
      })),
    };
    return row.kind === 'refund'
      ? { ...raw, kind: 'refund', refund: row.refund as PlanRefund }
      : { ...raw, kind: 'collection' };
  }
  const paths = pathsIn(row.psbt!);
  const fields: Omit<CollectionPlan, 'kind'> = {
    planId: row.id,
    mode: row.mode,
    network: row.network,
    chain: network?.chain ?? 'mainnet',
    currency: row.currency,
    format: 'psbt',
    status: row.status,
    treasury: row.treasury,
    masterFingerprint: row.master_fingerprint!,
    inputs: inputs.map((i) => ({
      txid: i.tx_hash,
      vout: i.output_index,
      address: i.address,
      amount: formatUnits(BigInt(i.amount), decimals),
      path: paths.get(`${i.tx_hash}:${i.output_index}`) ?? '',
    })),
    total: formatUnits(BigInt(row.total), decimals),
    fee: formatUnits(BigInt(row.fee), decimals),
    feeRate: row.fee_rate,
    sent: formatUnits(BigInt(row.sent), decimals),
    psbt: row.psbt!,
    txid: row.txid,
    reason: row.reason,
    acceptedAt: row.accepted_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
  return row.kind === 'refund'
    ? { ...fields, kind: 'refund', refund: row.refund as PlanRefund }
    : { ...fields, kind: 'collection' };
}

/**
 * Each input's full path as the PSBT names it (txid:vout to path): what the signer signs, whichever
 * key (the merchant's own, an earlier one, the gateway's) the plan was prepared with.
 */
function pathsIn(psbt: string): Map<string, string> {
  const tx = Transaction.fromPSBT(base64.decode(psbt));
  const paths = new Map<string, string>();
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    const derivation = input.bip32Derivation?.[0]?.[1];
    if (input.txid && input.index !== undefined && derivation)
      paths.set(`${hex.encode(input.txid)}:${input.index}`, formatPath(derivation.path));
  }
  return paths;
}

const OPEN_PLANS = statement<
  Pick<PlanRow, 'id' | 'status' | 'txid' | 'refund_id' | 'format'> & { expires_at: string | null },
  { network: string; mode: Mode }
>(
  sql`select ${columnsOf(collectionPlans, ['id', 'status', 'txid', 'refund_id', 'format'])},
      coalesce(${collectionPlans.body}->>'expiresAt', ${collectionPlans.body}->'transaction'->>'expiresAt') as expires_at
    from ${collectionPlans}
    where ${collectionPlans.network} = ${param('network')} and ${collectionPlans.mode} = ${param('mode')} and ${collectionPlans.status} in ('prepared', 'broadcast')`,
);
const UPDATE_PLAN = statement<SummaryRow, { id: string; status: string; txid: string | null; reason: string | null }>(
  sql`update ${collectionPlans} set ${bare(collectionPlans.status)} = ${param('status')}, ${bare(collectionPlans.txid)} = ${param('txid')},
    ${bare(collectionPlans.reason)} = ${param('reason')}, ${bare(collectionPlans.updatedAt)} = now()
  where ${collectionPlans.id} = ${param('id')}
  returning ${collectionPlans}.*, ${INPUT_COUNT}`,
);
const CLOSE_INPUTS = statement<unknown, { planId: string }>(
  sql`update ${collectionPlanInputs} set ${bare(collectionPlanInputs.open)} = false where ${collectionPlanInputs.planId} = ${param('planId')}`,
);

const DISCARD_REFUND_PLANS = statement<{ id: string }, { refundId: string; reason: string }>(
  sql`update ${collectionPlans} set ${bare(collectionPlans.status)} = 'stale', ${bare(collectionPlans.reason)} = ${param('reason')},
    ${bare(collectionPlans.updatedAt)} = now()
  where ${collectionPlans.refundId} = ${param('refundId')} and ${collectionPlans.status} = 'prepared'
  returning ${collectionPlans.id}`,
);

/**
 * In the transaction that cancels a refund or reopens its claim: its prepared plan is stale for
 * `reason`, never to be signed, and its outputs free. (A copy signed before and broadcast anyway
 * still pays: the signer's ledger keeps counting it.)
 */
export async function discardRefundPlans(tx: Queryable, refundId: string, reason: string): Promise<void> {
  for (const plan of await DISCARD_REFUND_PLANS.run(tx, { refundId, reason }))
    await CLOSE_INPUTS.run(tx, { planId: plan.id });
}

/** The event of a collection plan that reached a final status. */
const COLLECTION_EVENTS: Partial<Record<PlanStatus, EventType>> = {
  confirmed: 'collection.completed',
  failed: 'collection.failed',
  stale: 'collection.stale',
};

/**
 * The one place a stored plan's status changes as the chain moves it (the watcher's settling of
 * every family's plans goes through it): the plan's row, its outputs freed once it is final (those
 * still unspent are in the next plan), and for a collection that became final its event
 * (`collection.completed`, `.failed`, `.stale`) with its webhooks, all in `tx`, the step's
 * transaction. A refund plan's refund moves with it and reports it (lib/refunds).
 */
export async function movePlan(tx: Queryable, planId: string, next: PlanDecision): Promise<void> {
  const [row] = await UPDATE_PLAN.run(tx, { id: planId, ...next });
  if (!isFinalPlanStatus(next.status)) return;
  await CLOSE_INPUTS.run(tx, { planId });
  const type = COLLECTION_EVENTS[next.status];
  // A final status is reached once: its event's dedupe key (type and plan) keeps it one event.
  if (row!.kind === 'collection' && type)
    await publishEvents(tx, [
      {
        id: randomUUID(),
        merchantId: row!.merchant_id,
        mode: row!.mode,
        type,
        objectId: row!.id,
        data: JSON.stringify(planSummary(row!)),
        createdAt: row!.updated_at,
      },
    ]);
}

/** A plan whose status a watcher step changed. */
export interface PlanChange {
  planId: string;
  from: PlanStatus;
  to: PlanStatus;
  /** Its transaction, once seen. */
  txid: string | null;
  /** The refund a refund plan pays (lib/refunds moves it with the plan). */
  refundId: string | null;
  /** Confirmations of its transaction now, of the `required` ones. */
  confirmations: number;
  required: number;
}

const COLLECTED = unnest('o', {
  sender: 'text',
  to_address: 'text',
  currency: 'text',
  tx_hash: 'text',
  block_height: 'bigint',
});
const o = COLLECTED.ref;
/**
 * Account chains: a transfer of a deposit's currency out of its address to the treasury of the open
 * plan holding it collects that deposit (its `spent_by_tx`, undone by a reorganisation like a UTXO
 * spend). Addresses compare without case: EVM checksums are a spelling, not the address.
 */
const MARK_COLLECTED = statement<unknown, { network: string; mode: Mode }>(sql`update ${chainTransfers}
    set ${bare(chainTransfers.spentByTx)} = ${o.tx_hash}, ${bare(chainTransfers.spentAtHeight)} = ${o.block_height}
   from ${COLLECTED.from}, ${addresses}, ${collectionPlanInputs}, ${collectionPlans}
  where ${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.spentByTx} is null and ${chainTransfers.currency} = ${o.currency}
    and ${addresses.id} = ${chainTransfers.addressId} and lower(${addresses.address}) = lower(${o.sender})
    and ${collectionPlanInputs.transferId} = ${chainTransfers.id} and ${collectionPlanInputs.open}
    and ${collectionPlans.id} = ${collectionPlanInputs.planId} and lower(${collectionPlans.treasury}) = lower(${o.to_address})`);

const IN_MEMPOOL = unnest('m', { tx_hash: 'text' });
/** A prepared plan whose transaction the node holds unmined: when it was first known to (docs/decisions/105). */
const MARK_IN_MEMPOOL = statement<unknown, { network: string; mode: Mode }>(sql`update ${collectionPlans}
    set ${bare(collectionPlans.acceptedAt)} = now()
   from ${IN_MEMPOOL.from}
  where ${collectionPlans.network} = ${param('network')} and ${collectionPlans.mode} = ${param('mode')}
    and ${collectionPlans.status} = 'prepared' and ${collectionPlans.acceptedAt} is null
    and ${collectionPlans.txid} = ${IN_MEMPOOL.ref.tx_hash}`);

/** What a watcher step read that moves plans: its transfers (those out of our addresses among them), the mempool's, and its clock. */
export interface CollectionStep {
  transfers: readonly ChainTransfer[];
  /** UTXO chains: the transfers of the node's mempool; a plan's transaction among them was accepted. */
  mempool?: readonly ChainTransfer[];
  now: Date;
  /** EVM: the token transfers of sweeps, with what the node says each address held after (./swept-coin.ts `sweptCoinSightings`). */
  sweptCoin?: readonly SweptCoin[];
  /** EVM: the open plans whose nonces are all used at the step's height (./account-collections.ts `evmPlansWithNoncesUsed`). */
  noncesUsed?: ReadonlySet<string>;
  /** EVM: what the node says of each open refund plan's transaction (./evm-refund-plans.ts `evmRefundSightings`); one left out stays. */
  evmRefunds?: ReadonlyMap<string, EvmRefundSighting>;
  /** Tron: each open refund plan's transaction in a block, or not (./tron-refund-plans.ts `tronRefundSightings`); one left out stays. */
  tronRefunds?: ReadonlyMap<string, TronStepSighting | null>;
  /** XRP Ledger: each open refund plan's transaction validated or not, and expired or not (./xrpl-refund-plans.ts `xrplRefundSightings`); one left out stays. */
  xrplRefunds?: ReadonlyMap<string, XrplRefundSighting>;
  /** Solana: what the receiving wallets sent in the blocks scanned (ChainAdapter.scan `outgoing`). */
  outgoing?: readonly ChainTransfer[];
  /** The chain time the step scanned to: a Solana refund plan not seen by its `expiresAt` is stale after it. */
  chainTime?: Date;
}

/**
 * In a watcher step, after its spends are recorded: every open plan of the network moves as its
 * inputs' spends say (./lifecycle.ts; on account chains, as the step's transfers to the treasury
 * collect them). The one place a plan's status changes with the chain. A final plan frees its
 * outputs: those still unspent (a stale plan's others) are in the next plan.
 */
export async function settleCollections(
  tx: Queryable,
  network: Network,
  mode: Mode,
  tipHeight: number,
  step: CollectionStep = { transfers: [], now: new Date() },
): Promise<PlanChange[]> {
  if (network.family === 'solana') return settleSolanaRefundPlans(tx, network, mode, step);
  const account = isAccountPlanNetwork(network);
  if (!account && !isUtxoCoin(network.name) && network.family !== 'xrpl') return [];
  const outgoing = account ? step.transfers.filter((t) => t.from !== null && t.blockHeight !== null) : [];
  // What a Tron plan's transfer burned of the fund its plan sent the address (./plan-burns.ts).
  await spendBurnedFunds(tx, network, mode, outgoing);
  // The coin a 7702 sweep moved by its internal call (./swept-coin.ts).
  await spendSweptCoin(tx, network, mode, step.sweptCoin ?? []);
  if (outgoing.length > 0)
    await MARK_COLLECTED.run(tx, {
      network: network.name,
      mode,
      ...COLLECTED.values(
        outgoing.map((t) => ({
          sender: t.from,
          to_address: t.to,
          currency: t.currency,
          tx_hash: t.txHash,
          block_height: t.blockHeight,
        })),
      ),
    });
  const waiting = account ? [] : [...new Set((step.mempool ?? []).map((t) => t.txHash))];
  if (waiting.length > 0)
    await MARK_IN_MEMPOOL.run(tx, {
      network: network.name,
      mode,
      ...IN_MEMPOOL.values(waiting.map((txHash) => ({ tx_hash: txHash }))),
    });
  const plans = await OPEN_PLANS.run(tx, { network: network.name, mode });
  const changes: PlanChange[] = [];
  for (const plan of plans) {
    if ((plan.format === 'evm' || plan.format === 'tron' || plan.format === 'xrpl') && plan.refund_id !== null) {
      // An account chain's refund plan spends no deposits: what the node says of its transaction moves it.
      const required = requiredConfirmations(mode, network);
      let decision: PlanDecision;
      let minedAt: number | null;
      if (plan.format === 'evm') {
        const seen = step.evmRefunds?.get(plan.id);
        if (!seen) continue;
        decision = decideEvmRefundPlan(plan, seen, tipHeight, required);
        minedAt = seen.mined?.height ?? null;
      } else if (plan.format === 'xrpl') {
        // Validated is final: the same steps as a Tron refund's, expiring by the ledger index.
        const sighting = step.xrplRefunds?.get(plan.id);
        if (!sighting) continue;
        decision = decideTronRefundPlan(plan, sighting.seen, sighting.expired, tipHeight, required);
        minedAt = sighting.seen?.height ?? null;
      } else {
        if (!step.tronRefunds?.has(plan.id)) continue;
        const seen = step.tronRefunds.get(plan.id) ?? null;
        const expired = plan.expires_at !== null && step.now.getTime() > Date.parse(plan.expires_at);
        decision = decideTronRefundPlan(plan, seen, expired, tipHeight, required);
        minedAt = seen?.height ?? null;
      }
      if (decision.status === plan.status) continue;
      await movePlan(tx, plan.id, decision);
      changes.push({
        planId: plan.id,
        from: plan.status,
        to: decision.status,
        txid: decision.txid,
        refundId: plan.refund_id,
        confirmations: minedAt === null ? 0 : tipHeight - minedAt + 1,
        required,
      });
      continue;
    }
    const inputs = await PLAN_INPUT_ROWS.run(tx, { planId: plan.id });
    const states = inputs.map((i) => ({
      spentByTx: i.spent_by_tx,
      spentAtHeight: i.spent_at_height === null ? null : Number(i.spent_at_height),
    }));
    const required = requiredConfirmations(mode, network);
    const decision =
      plan.format === 'psbt' || plan.format === 'raw'
        ? decidePlan(plan, states, tipHeight, required)
        : decideAccountPlan(
            plan,
            states,
            tipHeight,
            required,
            plan.expires_at !== null && step.now.getTime() > Date.parse(plan.expires_at),
            step.noncesUsed?.has(plan.id) ?? false,
          );
    if (decision.status === plan.status && decision.txid === plan.txid) continue;
    await movePlan(tx, plan.id, decision);
    if (decision.status !== plan.status) {
      const height = Math.max(...states.map((i) => i.spentAtHeight ?? Number.POSITIVE_INFINITY));
      changes.push({
        planId: plan.id,
        from: plan.status,
        to: decision.status,
        txid: decision.txid,
        refundId: plan.refund_id,
        confirmations: Number.isFinite(height) ? tipHeight - height + 1 : 0,
        required,
      });
    }
  }
  return changes;
}
