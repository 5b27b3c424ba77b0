/**
 * What collecting one Tron deposit address burns, by the resource rules the node applies
 * (https://developers.tron.network/docs/resource-model, tests/support/fake-tron-node.ts's header):
 * bandwidth is a signed transaction's bytes plus its result's, paid from staked bandwidth, else the
 * account's free bandwidth, else burned at `getTransactionFee` sun a byte; a transfer that creates an
 * account burns `getCreateNewAccountFeeInSystemContract` and `getCreateAccountFee` instead; energy
 * not lent by stake is burned at `getEnergyFee` sun a unit. Pure: the prices and sizes come from the
 * node (./collect.ts), the rules from here (docs/decisions/107).
 */

/** java-tron's Constant.MAX_RESULT_SIZE_IN_TX: bandwidth counted per contract for its result. */
const RESULT_BYTES = 64n;

/** Bytes of bandwidth a signed one-signature transaction of `rawDataHex` uses. */
export function bandwidthOf(rawDataHex: string): bigint {
  const raw = BigInt(rawDataHex.length / 2);
  const varintLength = (n: bigint) => BigInt(Math.max(1, Math.ceil(n.toString(2).length / 7)));
  return 1n + varintLength(raw) + raw + 2n + 65n + RESULT_BYTES;
}

/** The node's prices a cost needs, sun (wallet/getchainparameters). */
export interface TronFeePrices {
  energyFee: bigint;
  transactionFee: bigint;
  createAccountFee: bigint;
  createNewAccountFeeInSystemContract: bigint;
}

/** The bandwidth, in bytes, of each transaction a plan may build for one address. */
export interface TronStepBytes {
  /** The fee payer's TransferContract (`activate` or `fund`). */
  fund: bigint;
  delegate: bigint;
  transfer: bigint;
  reclaim: bigint;
}

/** What one address's collection burns, sun, by what it pays for. */
export interface TronAddressCost {
  /** The two account creation fees of an address not yet active. */
  activation: bigint;
  /** The token transfer's energy, burned when no stake lends it. */
  energy: bigint;
  /** Bandwidth no free or staked bandwidth covered. */
  bandwidth: bigint;
  total: bigint;
}

function cost(activation: bigint, energy: bigint, bandwidth: bigint): TronAddressCost {
  return { activation, energy, bandwidth, total: activation + energy + bandwidth };
}

/**
 * One address's cost with nobody's free or staked bandwidth left, which is the most it can be: an
 * address not yet active burns the creation fees for its activating transfer (the new account's own
 * free bandwidth then carries its token transfer); an active one burns its fund transfer's bytes and
 * its token transfer's. With stake (`staked`), the energy is lent and the delegation and its reclaim
 * burn their bytes from the fee payer; without, the transfer burns its energy at the energy price.
 */
export function tronAddressCost(
  prices: TronFeePrices,
  address: { active: boolean; energy: bigint; bytes: TronStepBytes; staked: boolean },
): TronAddressCost {
  const { bytes } = address;
  const activation = address.active ? 0n : prices.createNewAccountFeeInSystemContract + prices.createAccountFee;
  const own = address.active ? bytes.fund + bytes.transfer : 0n;
  const lending = address.staked ? bytes.delegate + bytes.reclaim : 0n;
  const energy = address.staked ? 0n : address.energy * prices.energyFee;
  return cost(activation, energy, (own + lending) * prices.transactionFee);
}

/**
 * The most collecting one address can cost (the Funds page's "at most"), whether it is active yet
 * and whether the fee payer's stake lends the energy or it is burned: the costliest of the four;
 * of the two with stake when the kept fee payer's stake is known to lend it (`lent`).
 */
export function tronCostAtMost(
  prices: TronFeePrices,
  energy: bigint,
  bytes: TronStepBytes,
  lent = false,
): TronAddressCost {
  const cases = [false, true].flatMap((active) =>
    (lent ? [true] : [false, true]).map((staked) => tronAddressCost(prices, { active, energy, bytes, staked })),
  );
  return cases.reduce((most, c) => (c.total > most.total ? c : most));
}

/**
 * What sweeping a deposit address's own TRX to the treasury sends and burns (docs/decisions/113):
 * one TransferContract signed by the deposit key, nothing lent or sent by the fee payer. The
 * address pays its bandwidth from its free bandwidth when that covers the sweep's bytes (then it
 * keeps nothing), else burns the bytes at `getTransactionFee`; a sweep to a treasury that is no
 * account yet creates it and burns the two creation fees instead. The address keeps exactly the
 * burn; null when the burn takes all it holds (sweeping would cost more than it moves).
 */
export function trxSweep(
  prices: TronFeePrices,
  address: { balance: bigint; bytes: bigint; freeBandwidth: bigint; treasuryActive: boolean },
): { amount: bigint; burn: bigint } | null {
  const burn = !address.treasuryActive
    ? prices.createNewAccountFeeInSystemContract + prices.createAccountFee
    : address.freeBandwidth >= address.bytes
      ? 0n
      : address.bytes * prices.transactionFee;
  const amount = address.balance - burn;
  return amount > 0n ? { amount, burn } : null;
}

/** The most sweeping one address's TRX burns (the Funds page's "at most"): its bytes, no free bandwidth left. */
export function trxSweepAtMost(prices: TronFeePrices, bytes: bigint): bigint {
  return bytes * prices.transactionFee;
}
