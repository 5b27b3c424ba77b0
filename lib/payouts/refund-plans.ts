import 'server-only';
/**
 * Refund plans: `prepareRefundPlan` sends each network family to its planner (EVM:
 * ./evm-refund-plans.ts, docs/decisions/112; Tron: ./tron-refund-plans.ts, 115; XRP Ledger:
 * ./xrpl-refund-plans.ts, 119). Those of the Bitcoin-family networks
 * (docs/decisions/081; a raw transaction on dogecoin and bitcoincash, 121): one transaction that pays one
 * refund to the address its payer confirmed, from the merchant's deposit outputs (the refunded
 * payment's own first), with the change to the treasury. The plan carries the payment as the
 * signer can check it (its outputs to keys of the seed and their full transactions); the watcher
 * moves it as it moves a collection (./collections.ts `settleCollections`).
 */
import { randomUUID } from 'node:crypto';
import { base64 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { BlockNotAvailable, networkFor, requiredConfirmations } from '../chains';
import {
  buildRawRefund,
  buildRefundPsbt,
  depositPath,
  fingerprintHex,
  formatPath,
  isRawCoin,
  isUtxoCoin,
  type CollectionInput,
} from '../chains/utxo/transactions';
import { addresses, chainTransfers, columnsOf, param, sql, statement, type Database, type RowOf } from '../db';
import { formatUnits } from '../money';
import type { AnyRefundPlan, ClaimDelivery, Mode, PlanRefund, RawRefundPlan, RefundPlan } from '../protocol';
import {
  COLLECTABLE,
  INSERT_INPUTS,
  INSERT_PLAN,
  OPEN_REFUND_PLAN,
  PLAN_INPUTS,
  collectionPlan,
  isSecondOpenPlan,
  planFooting,
  type Collectable,
  type PlanWrite,
  type RawPlanBody,
} from './collections';
import { CollectionRefused } from './errors';
import { prepareEvmRefundPlan } from './evm-refund-plans';
import { prepareSolanaRefundPlan } from './solana-refund-plans';
import { prepareTronRefundPlan } from './tron-refund-plans';
import { prepareXrplRefundPlan } from './xrpl-refund-plans';
import { treasuryOf } from './treasury';

/** The refund a plan pays, as lib/refunds knows it. */
export interface RefundToPay {
  merchantId: string;
  mode: Mode;
  network: string;
  refundId: string;
  orderId: string | null;
  invoiceId: string | null;
  depositId: string | null;
  /** Base units. */
  amount: bigint;
  /** The refund's currency: the coin, or on an account chain one of its tokens. */
  currency: string;
  destination: string;
  /** The destination tag the payer confirmed with its account (XRP Ledger); null or absent elsewhere. */
  tag?: string | null;
  addressConfirmedAt: Date;
  /** Who confirmed `destination`: the payer by its claim link, or the merchant choosing the payment's sender (`sender`). */
  delivery: ClaimDelivery;
  /** The refunded payment: an order's counted transfers, or an orphan deposit's one. */
  payment: { orderId: string } | { txHash: string; outputIndex: number };
  /** The network fee is taken from the refund (the payer gets less) instead of from the change. */
  feeFromRefund: boolean;
  /** Base units per virtual byte; the node's estimate when absent. */
  feeRate?: bigint;
}

type PaymentOutput = Collectable &
  Pick<RowOf<typeof chainTransfers>, 'spent_by_tx'> &
  Pick<RowOf<typeof addresses>, 'key_fingerprint' | 'tag'>;
const PAYMENT_COLUMNS = sql`${columnsOf(chainTransfers, ['id', 'tx_hash', 'output_index', 'amount', 'block_hash', 'spent_by_tx'])},
    ${addresses.derivationIndex} as derivation_index, ${addresses.address} as address, ${addresses.keyFingerprint} as key_fingerprint, ${addresses.tag} as tag`;

/** An order's payments in blocks that were not rejected: what its `received` counts. */
export const ORDER_PAYMENT = statement<PaymentOutput, { orderId: string; merchantId: string; mode: Mode }>(
  sql`select ${PAYMENT_COLUMNS}
  from ${chainTransfers} join ${addresses} on ${addresses.id} = ${chainTransfers.addressId}
  where ${chainTransfers.orderId} = ${param('orderId')} and ${chainTransfers.merchantId} = ${param('merchantId')}
    and ${chainTransfers.mode} = ${param('mode')} and ${chainTransfers.dropped} = false and ${chainTransfers.blockHeight} is not null
    and ${chainTransfers.settledRole} is distinct from 'rejected'
  order by ${chainTransfers.blockHeight}, ${chainTransfers.txHash}, ${chainTransfers.outputIndex}`,
);
export const DEPOSIT_PAYMENT = statement<
  PaymentOutput,
  { network: string; mode: Mode; merchantId: string; txHash: string; outputIndex: number }
>(
  sql`select ${PAYMENT_COLUMNS}
  from ${chainTransfers} join ${addresses} on ${addresses.id} = ${chainTransfers.addressId}
  where ${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.merchantId} = ${param('merchantId')} and ${chainTransfers.txHash} = ${param('txHash')}
    and ${chainTransfers.outputIndex} = ${param('outputIndex')} and ${chainTransfers.blockHeight} is not null`,
);

/**
 * Prepares the plan that pays `request`'s refund, by its network's family: EVM
 * (./evm-refund-plans.ts), Solana (./solana-refund-plans.ts), Tron (./tron-refund-plans.ts), XRP
 * Ledger (./xrpl-refund-plans.ts), else
 * the Bitcoin family. Refused
 * (CollectionRefused) when an open plan pays the refund already, and as each family's planner says.
 */
export async function prepareRefundPlan(
  db: Database,
  request: RefundToPay,
  write: PlanWrite = {},
): Promise<AnyRefundPlan> {
  const [open] = await OPEN_REFUND_PLAN.run(db, { refundId: request.refundId });
  if (open) throw new CollectionRefused(`an open plan pays this refund already: ${open.id}`);
  const network = networkFor(request.mode, request.network);
  // The one place a refund plan's family is chosen.
  if (network?.family === 'evm') return prepareEvmRefundPlan(db, network, request, write);
  if (network?.family === 'solana') return prepareSolanaRefundPlan(db, network, request, write);
  if (network?.family === 'tron') return prepareTronRefundPlan(db, network, request, write);
  if (network?.family === 'xrpl') return prepareXrplRefundPlan(db, network, request, write);
  return prepareUtxoRefundPlan(db, request, write);
}

/**
 * The Bitcoin-family plan of `request`'s refund: a PSBT, or on dogecoin and bitcoincash the raw
 * transaction with what the signer checks of each input (docs/decisions/121). Refused
 * (CollectionRefused) off the Bitcoin family, without a treasury for the change, a key origin or a
 * fee estimate, or when the spendable outputs do not cover the refund and its fee.
 */
async function prepareUtxoRefundPlan(
  db: Database,
  request: RefundToPay,
  write: PlanWrite,
): Promise<RefundPlan | RawRefundPlan> {
  const network = networkFor(request.mode, request.network);
  if (!network || !isUtxoCoin(network.name))
    throw new CollectionRefused(
      `refunds on ${request.network} are not sent by plans yet: send it from your wallet and complete it by its transaction id`,
    );
  const treasury = await treasuryOf(db, request.merchantId, network.name, request.mode);
  if (!treasury)
    throw new CollectionRefused(`no treasury is set for ${network.name}: the change goes there; set one first`);
  const { key, keyFingerprint, coin, chain, node, feeRate, cursor } = await planFooting(
    db,
    network,
    request.mode,
    request.merchantId,
    request.feeRate,
  );
  const scope = { merchantId: request.merchantId, mode: request.mode };
  const payment =
    'orderId' in request.payment
      ? await ORDER_PAYMENT.run(db, { orderId: request.payment.orderId, ...scope })
      : await DEPOSIT_PAYMENT.run(db, { network: network.name, ...scope, ...request.payment });
  // The signer checks the payment against its seed: only outputs of the current key can prove it.
  const proof = payment.filter((p) => Number(p.derivation_index) >= 0 && p.key_fingerprint === keyFingerprint);
  if (proof.length === 0)
    throw new CollectionRefused('the payment was not made to an address of the key: send the refund by hand');
  const spendable = await COLLECTABLE.run(db, {
    ...scope,
    network: network.name,
    currency: network.currencies[0]!.ticker,
    minimum: '1',
    confirmedAt: cursor.height - requiredConfirmations(request.mode, network) + 1,
    keyFingerprint,
    limit: 500,
  });
  // The payment's own outputs first: spending one also proves to the signer that the payment exists.
  const own = new Set(proof.map((p) => p.id));
  const candidates = [...spendable.filter((c) => own.has(c.id)), ...spendable.filter((c) => !own.has(c.id))];
  let previous: Map<string, string>;
  try {
    previous = await node.previousTransactions(
      [...proof, ...candidates].map((r) => ({ txid: r.tx_hash, blockHash: r.block_hash ?? '' })),
    );
  } catch (error) {
    if (error instanceof BlockNotAvailable)
      throw new CollectionRefused(`${error.message}: a refund plan needs the full transactions it spends and refunds`);
    throw error;
  }
  const asInput = (r: Collectable): CollectionInput & { id: string } => ({
    id: r.id,
    txid: r.tx_hash,
    vout: r.output_index,
    amount: BigInt(r.amount),
    index: Number(r.derivation_index),
    previousTx: previous.get(r.tx_hash)!,
  });
  const draft = {
    chain,
    key: { ...key, chain: key.chain as HDKey },
    treasury,
    feeRate,
    candidates: candidates.map(asInput),
    destination: request.destination,
    amount: request.amount,
    feeFromRefund: request.feeFromRefund,
  };
  let built: {
    spent: CollectionInput[];
    fee: bigint;
    pays: bigint;
    feeRate: bigint;
    psbt: Uint8Array | null;
    body: RawPlanBody | null;
  };
  try {
    if (isRawCoin(network.name)) {
      const raw = buildRawRefund({ ...draft, coin: network.name });
      const inputs = raw.plan.inputs.map((i) => ({ ...i, amount: i.amount.toString() }));
      built = { ...raw, psbt: null, body: { unsignedTx: raw.plan.transaction, inputs } };
    } else {
      const psbt = buildRefundPsbt({ ...draft, coin });
      built = { ...psbt, spent: psbt.inputs, feeRate, body: null };
    }
  } catch (error) {
    throw new CollectionRefused((error as Error).message);
  }
  const decimals = network.currencies[0]!.decimals;
  const refund: PlanRefund = {
    refundId: request.refundId,
    orderId: request.orderId,
    invoiceId: request.invoiceId,
    depositId: request.depositId,
    amount: formatUnits(request.amount, decimals),
    pays: formatUnits(built.pays, decimals),
    feeFromRefund: request.feeFromRefund,
    destination: request.destination,
    addressConfirmedAt: request.addressConfirmedAt.toISOString(),
    delivery: request.delivery,
    payment: {
      outputs: proof.map((p) => ({
        txid: p.tx_hash,
        vout: p.output_index,
        path: formatPath(depositPath(key, Number(p.derivation_index))),
      })),
      transactions: [...new Map(proof.map((p) => [p.tx_hash, p])).values()].map((p) => ({
        txid: p.tx_hash,
        blockHash: p.block_hash!,
        hex: previous.get(p.tx_hash)!,
      })),
    },
  };
  const total = built.spent.reduce((sum, input) => sum + input.amount, 0n);
  const id = randomUUID();
  try {
    await db.transaction(async (tx) => {
      await INSERT_PLAN.run(tx, {
        id,
        ...scope,
        network: network.name,
        currency: network.currencies[0]!.ticker,
        treasury,
        masterFingerprint: fingerprintHex(key.masterFingerprint),
        feeRate: built.feeRate.toString(),
        total: total.toString(),
        fee: built.fee.toString(),
        sent: (total - built.fee).toString(),
        psbt: built.psbt && base64.encode(built.psbt),
        // Segwit inputs: the id does not cover signatures, so the plan knows its transaction's id now.
        txid: built.psbt && key.script === 'wpkh' ? Transaction.fromPSBT(built.psbt).id : null,
        kind: 'refund',
        refundId: request.refundId,
        refund: JSON.stringify(refund),
        format: built.body ? 'raw' : 'psbt',
        body: built.body && JSON.stringify(built.body),
      });
      const spent = built.spent as (CollectionInput & { id: string })[];
      const inserted = await INSERT_INPUTS.run(tx, {
        planId: id,
        ...PLAN_INPUTS.values(spent.map((i) => ({ transfer_id: i.id }))),
      });
      if (inserted.length !== spent.length)
        throw new CollectionRefused('another plan took some of these outputs at the same moment: prepare again');
      await write.within?.(tx, id);
    });
  } catch (error) {
    if (isSecondOpenPlan(error)) throw new CollectionRefused('an open plan pays this refund already');
    throw error;
  }
  return (await collectionPlan(db, request.merchantId, request.mode, id)) as RefundPlan | RawRefundPlan;
}
