import 'server-only';
/**
 * What the refund plans paid from a treasury share (EVM, docs/decisions/112; Tron, 115): the
 * footing (live mode, the network's node, the currency, the treasury, the payment's transfers to
 * deposit addresses of the key, which the signer checks on its own node by their paths), the
 * plan's refund with that payment, and storing the plan beside the others (no inputs: the treasury
 * pays, not the deposits). Each family builds its own transaction between the two.
 */
import type { Currency, Network } from '../catalog';
import { liveChainConfig } from '../chains';
import type { Database } from '../db';
import { formatUnits } from '../money';
import type { PlanRefund } from '../protocol';
import { INSERT_PLAN, isSecondOpenPlan, type PlanWrite } from './collections';
import { CollectionRefused } from './errors';
import { DEPOSIT_PAYMENT, ORDER_PAYMENT, type RefundToPay } from './refund-plans';
import { treasuryOf } from './treasury';

/** Most payment transfers a plan names: an order is paid by a few. */
const MAX_PAYMENT_TRANSFERS = 50;

/** A transfer of the refunded payment, as the plan names it for the signer. */
interface PaymentTransfer {
  tx_hash: string;
  address: string;
  derivation_index: string | number;
}

/** What a treasury's refund plan stands on. */
export interface TreasuryRefundFooting {
  cfg: NonNullable<ReturnType<typeof liveChainConfig>>;
  currency: Currency;
  treasury: string;
  /** The transfers that paid deposit addresses of the key (the signer checks each by its path). */
  proof: PaymentTransfer[];
}

/**
 * The footing of `request`'s refund plan on `network`, paid from its treasury; CollectionRefused
 * in test mode (`sandboxTakes` names what the sandbox ledger would need), without a node, a
 * treasury, or a payment to an address of the key.
 */
export async function treasuryRefundFooting(
  db: Database,
  network: Network,
  request: RefundToPay,
  sandboxTakes: string,
): Promise<TreasuryRefundFooting> {
  if (request.mode === 'test')
    throw new CollectionRefused(
      `test-mode refunds on ${network.name} are not sent by plans: the sandbox ledger takes no ${sandboxTakes} transactions; complete it by hand`,
    );
  const cfg = liveChainConfig(network.name);
  if (!cfg) throw new CollectionRefused(`${network.name} is not live: it has no node configured`);
  const currency = network.currencies.find((c) => c.ticker === request.currency);
  if (!currency) throw new CollectionRefused(`${request.currency} is not a currency of ${network.name}`);
  const treasury = await treasuryOf(db, request.merchantId, network.name, request.mode);
  if (!treasury)
    throw new CollectionRefused(`no treasury is set for ${network.name}: the refund is paid from it; set one first`);
  const scope = { merchantId: request.merchantId, mode: request.mode };
  const payment =
    'orderId' in request.payment
      ? await ORDER_PAYMENT.run(db, { orderId: request.payment.orderId, ...scope })
      : await DEPOSIT_PAYMENT.run(db, { network: network.name, ...scope, ...request.payment });
  // The signer checks each against its seed by the path: only deposit addresses of a key can prove it.
  const proof = payment.filter((p) => Number(p.derivation_index) >= 0).slice(0, MAX_PAYMENT_TRANSFERS);
  if (proof.length === 0)
    throw new CollectionRefused('the payment was not made to an address of the key: send the refund by hand');
  return { cfg, currency, treasury, proof };
}

/**
 * The refund as a treasury's plan states it: `taken` (./refund-fee.ts) says what it pays, the whole
 * refund or, when its payer bears the fee, the refund less the plan's fee; its payment the transfers
 * of `proof` at `depositChain`/index.
 */
export function treasuryPlanRefund(
  request: RefundToPay,
  currency: Currency,
  taken: { fee: bigint; pays: bigint },
  proof: readonly PaymentTransfer[],
  depositChain: string,
): Omit<PlanRefund, 'payment'> & { payment: { transfers: { txHash: string; address: string; path: string }[] } } {
  return {
    refundId: request.refundId,
    orderId: request.orderId,
    invoiceId: request.invoiceId,
    depositId: request.depositId,
    amount: formatUnits(request.amount, currency.decimals),
    pays: formatUnits(taken.pays, currency.decimals),
    // True only when the fee is taken: a token refund, or one whose fee is nothing, pays the refund whole.
    feeFromRefund: taken.fee > 0n,
    destination: request.destination,
    addressConfirmedAt: request.addressConfirmedAt.toISOString(),
    delivery: request.delivery,
    payment: {
      transfers: [...new Map(proof.map((p) => [`${p.tx_hash}:${p.address}`, p])).values()].map((p) => ({
        txHash: p.tx_hash.toLowerCase(),
        address: p.address,
        path: `${depositChain}/${p.derivation_index}`,
      })),
    },
  };
}

/**
 * Stores a treasury's refund plan (`plan`, its body) with the caller's writes: the refund as its
 * total, the fee taken from it (`fee`, none when the treasury bears it, stated in the body) and
 * what it sends; a second open plan of the refund is refused.
 */
export async function storeTreasuryRefundPlan(
  db: Database,
  write: PlanWrite,
  stored: {
    plan: { planId: string; refund: unknown };
    request: RefundToPay;
    network: Network;
    currency: Currency;
    treasury: string;
    /** The fee taken from the refund, base units; 0 when the treasury bears it. */
    fee: bigint;
    feeRate: string;
    txid: string | null;
    format: 'evm' | 'tron';
  },
): Promise<void> {
  const { plan, request } = stored;
  try {
    await db.transaction(async (tx) => {
      await INSERT_PLAN.run(tx, {
        id: plan.planId,
        merchantId: request.merchantId,
        mode: request.mode,
        network: stored.network.name,
        currency: stored.currency.ticker,
        treasury: stored.treasury,
        masterFingerprint: null,
        feeRate: stored.feeRate,
        total: request.amount.toString(),
        fee: stored.fee.toString(),
        sent: (request.amount - stored.fee).toString(),
        psbt: null,
        txid: stored.txid,
        kind: 'refund',
        refundId: request.refundId,
        refund: JSON.stringify(plan.refund),
        format: stored.format,
        body: JSON.stringify(plan),
      });
      await write.within?.(tx, plan.planId);
    });
  } catch (error) {
    if (isSecondOpenPlan(error)) throw new CollectionRefused('an open plan pays this refund already');
    throw error;
  }
}
