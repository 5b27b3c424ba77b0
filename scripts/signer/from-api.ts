/**
 * `npm run signer -- sign --from-api` (docs/decisions/094, 105): a collection plan or a refund's plan
 * read through the API, checked as a plan file is (nothing the gateway answers is believed more),
 * signed, the refund kept in the signer's ledger before the signature leaves this machine, and the
 * signed transaction handed back through `collections/submit`. The gateway's answers are checked
 * too: the plan answered is the one asked for and waits for a signature, and the gateway says it
 * took the transaction that was signed.
 */
import type { HDKey } from '@scure/bip32';
import { z } from 'zod';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import type { PlanSubmitted } from '../../lib/protocol';
import { GatewayRefusal, readPlan, submitPlan, type GatewayClient, type PlanAsked } from './api';
import type { RefundLedger } from './refunds';
import {
  signPlan,
  type InChainCheck,
  type SignOutcome,
  type Signed,
  type SignerConfig,
  type UnspentCheck,
} from './sign-plan';

const answeredPlan = z.object({
  planId: z.string(),
  kind: z.string(),
  status: z.string(),
  refund: z.object({ refundId: z.string() }).optional(),
});

/**
 * Why the plan the gateway answered is not the one asked for, or cannot be signed: another plan
 * (or another refund's), another kind, or a plan that waits for no signature (a refund's stale plan
 * signed would stay in the ledger as signed). Empty when it is the one.
 */
export function answerRefusals(planJson: unknown, asked: PlanAsked): string[] {
  const plan = answeredPlan.safeParse(planJson);
  if (!plan.success) return ['the gateway answered something that is not a plan'];
  const { planId, kind, status, refund } = plan.data;
  const reasons: string[] = [];
  if (kind !== asked.kind) reasons.push(`the gateway answered a ${kind} plan; a ${asked.kind} plan was asked for`);
  if (asked.kind === 'collection' && planId !== asked.planId)
    reasons.push(`the gateway answered plan ${planId}; plan ${asked.planId} was asked for`);
  if (asked.kind === 'refund' && refund?.refundId !== asked.refundId)
    reasons.push(
      `the gateway answered a plan of refund ${refund?.refundId ?? '(none)'}; refund ${asked.refundId} was asked for`,
    );
  if (status !== 'prepared') reasons.push(`plan ${planId} is ${status}: it takes no signature`);
  return reasons;
}

export interface FromApiIo {
  confirm(summary: string): Promise<boolean>;
  unspent?: UnspentCheck;
  inChain?: InChainCheck;
  /** The signer's refund ledger as read, and where the next one is kept (written before the signature leaves). */
  ledger: RefundLedger;
  keepLedger(next: RefundLedger): void;
  /** Told of the signed transaction before it is submitted (the command line writes it out). */
  onSigned?(signed: Signed): void;
  now?: Date;
}

/**
 * Signs the plan text the gateway answered for `asked` and submits it; throws SignerRefusal for
 * what the signer refuses (nothing kept, nothing sent) and GatewayRefusal for what the gateway did.
 */
export async function signAndSubmit(
  client: GatewayClient,
  asked: PlanAsked,
  planText: string,
  config: SignerConfig,
  root: HDKey,
  io: FromApiIo,
): Promise<{ signed: Signed; submitted: PlanSubmitted }> {
  return submitSigned(client, asked, planText, () => signPlan(planText, config, root, io), io);
}

/**
 * The steps every plan read through the API takes, whatever signs it (`sign`: a Bitcoin-family
 * plan's `signPlan`, an EVM refund's ./sign-evm-refund.ts): the answer checked to be the plan
 * asked for, signed, the ledger kept, the transaction written out, then submitted and the
 * gateway's answer checked.
 */
export async function submitSigned(
  client: GatewayClient,
  asked: PlanAsked,
  planText: string,
  sign: () => Promise<SignOutcome>,
  io: Pick<FromApiIo, 'ledger' | 'keepLedger' | 'onSigned'>,
): Promise<{ signed: Signed; submitted: PlanSubmitted }> {
  let planJson: unknown;
  try {
    planJson = JSON.parse(planText);
  } catch {
    throw new GatewayRefusal('the gateway answered a plan that is not JSON');
  }
  const refusals = answerRefusals(planJson, asked);
  if (refusals.length > 0) throw new SignerRefusal(refusals);
  const { signed, ledgerEntry } = await sign();
  // The ledger holds the refund before the transaction leaves this program: a refund signed is counted, taken or not.
  if (ledgerEntry) io.keepLedger({ refunds: [...io.ledger.refunds, ledgerEntry] });
  io.onSigned?.(signed);
  const submitted = await submitPlan(client, signed.planId, signed.rawTx);
  if (submitted.planId !== signed.planId || submitted.txid !== signed.txid)
    throw new GatewayRefusal(
      `the gateway says it took transaction ${submitted.txid} for plan ${submitted.planId}; this signer signed ${signed.txid} for plan ${signed.planId}`,
    );
  return { signed, submitted };
}

/** Reads the plan asked for from the gateway, then `signAndSubmit`. */
export async function signFromApi(
  client: GatewayClient,
  asked: PlanAsked,
  config: SignerConfig,
  root: HDKey,
  io: FromApiIo,
): Promise<{ signed: Signed; submitted: PlanSubmitted }> {
  return signAndSubmit(client, asked, await readPlan(client, asked), config, root, io);
}
