/**
 * What the merchant's deposit addresses hold (issue 35 item 2, docs/collections.md): per network and
 * currency of the key's mode, from what the watcher recorded in and out, with the estimated fee to
 * collect it all at the node's current rate and the treasury collections go to. `funds/list`
 * answers it; the dashboard's Funds page shows the same lines.
 */
import { z } from 'zod';
import { decimalString } from './decimal';

export const fundsHeldSchema = z.object({
  network: z.string(),
  currency: z.string(),
  /** In the coin, a decimal string: outputs in a block and not spent by a scanned block. */
  total: decimalString,
  /** How many deposit addresses hold it, and in how many outputs. */
  addresses: z.number().int().nonnegative(),
  outputs: z.number().int().nonnegative(),
  /** The fee to collect every output in one transaction at `feeRate`, in the coin; null without a fee estimate (test mode, no node). */
  estimatedCost: decimalString.nullable(),
  /** Base units per virtual byte, the node's estimate for six blocks; null without one. */
  feeRate: z.string().regex(/^\d+$/).nullable(),
  /**
   * EVM networks: the estimated network fee to collect one address, in the network's coin
   * (`currency`), from the planner's own gas bounds at the node's current fee cap: a token's share
   * of an EIP-7702 sweep and its clear, or a coin's own transfer. At most that (the gas reserved is
   * a bound); on rollups the L1 data fee comes on top (docs/collections.md). Null elsewhere, in test
   * mode, or when the node gave no fee (docs/decisions/093).
   */
  costPerAddress: z.object({ amount: decimalString, currency: z.string() }).nullable(),
  /** Where collections of this network go; null until the merchant sets one. */
  treasury: z.string().nullable(),
});
export type FundsHeld = z.infer<typeof fundsHeldSchema>;

/**
 * EVM networks: the gas a fund-then-transfer collection left on deposit addresses (the gas payer's
 * funds not collected and in no open plan, docs/decisions/113, 117), a line per network apart from
 * the coin's `funds` line, which leaves those funds out. The node is asked for their balances and
 * fees as the Funds page asks it; `read` false when it gave none (test mode, no node, or no answer),
 * and then only `addresses` is known.
 */
export const gasLeftSchema = z.object({
  network: z.string(),
  /** The network's coin. */
  currency: z.string(),
  /** How many deposit addresses the gas payer funded whose funds are not collected. */
  addresses: z.number().int().nonnegative(),
  /** Whether the node answered for their balances and fees; false: the three figures below are null. */
  read: z.boolean(),
  /** What the node says those addresses hold now, in the coin. */
  left: decimalString.nullable(),
  /** What sending one address's coin back costs at most (its own 21,000-gas transfer at the fee cap a plan would carry now). */
  costPerAddress: z.object({ amount: decimalString, currency: z.string() }).nullable(),
  /** Of `addresses`, those holding more than that cost: the next token plan of the network sends theirs back. */
  worthReturning: z.number().int().nonnegative().nullable(),
});
export type GasLeft = z.infer<typeof gasLeftSchema>;

export const fundsResponse = z.object({ funds: z.array(fundsHeldSchema), gasLeft: z.array(gasLeftSchema) });

/**
 * One held output whose node's view differs from the watcher's record; on EVM and Tron, one address
 * whose balance on the node differs from what the records say it holds (`txid` and `vout` null).
 */
export const fundsDifferenceSchema = z.object({
  /** The output's transaction; null on EVM and Tron, where an address holds a balance. */
  txid: z.string().nullable(),
  vout: z.number().int().nonnegative().nullable(),
  address: z.string(),
  /** What the watcher recorded, in the coin: the output, or the address's deposits not collected. */
  recorded: decimalString,
  /** What the node holds there now, in the coin; null: spent (in a block) or unknown to the node. */
  atNode: decimalString.nullable(),
});

/** `funds/check`'s line: the network's recorded outputs (EVM, Tron: its addresses' balances) asked of its node. */
export const fundsCheckSchema = z.object({
  network: z.string(),
  currency: z.string(),
  /** How many held outputs (EVM, Tron: deposits not collected) the watcher recorded. */
  outputs: z.number().int().nonnegative(),
  /** False where there is no node to ask (test mode) or it gave no answer; `reason` says why. */
  checked: z.boolean(),
  reason: z.string().nullable(),
  differences: z.array(fundsDifferenceSchema),
});
export type FundsCheck = z.infer<typeof fundsCheckSchema>;

export const fundsCheckResponse = z.object({ checks: z.array(fundsCheckSchema) });

/** A fee payer kept for a network (docs/decisions/099): an address of the merchant's seed and its path, never a key. */
export const keptFeePayerSchema = z.object({ network: z.string(), address: z.string(), path: z.string() });
/** fee-payers/list: every network's kept fee payer in the key's mode, by network. */
export const feePayersResponse = z.object({ feePayers: z.array(keptFeePayerSchema) });
