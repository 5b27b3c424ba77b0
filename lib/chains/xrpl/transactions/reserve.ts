/**
 * The XRP an account must keep (docs/decisions/127): the ledger's base reserve plus the owner
 * reserve for each object the account owns (`OwnerCount`). A Payment that would leave less is not
 * sent (`tecUNFUNDED_PAYMENT`, its fee burnt), so the gateway refuses to plan one and the signer can
 * refuse to sign one by the same arithmetic. Drops as bigints throughout.
 *
 * Documentation followed (xrpl.org):
 * - reserves, base and owner: https://xrpl.org/docs/concepts/accounts/reserves
 * - the total: https://xrpl.org/docs/tutorials/best-practices/account-management/calculate-reserves
 */

/** The network's reserve settings, in drops (`server_state` `validated_ledger.reserve_base`, `reserve_inc`). */
export interface XrplReserveSettings {
  base: bigint;
  increment: bigint;
}

/** What an account holds and owns, as `account_info` answers it (`Balance` in drops, `OwnerCount`). */
export interface XrplAccountFunds {
  balance: bigint;
  ownerCount: number;
}

/** The XRP `funds` must keep, in drops: the base reserve and the owner reserve for each object it owns. */
export function xrplAccountReserve(settings: XrplReserveSettings, ownerCount: number): bigint {
  return settings.base + settings.increment * BigInt(ownerCount);
}

/** Why a payment cannot leave an account: the reserve it must keep, what it may spend above it, what the payment needs. */
export interface XrplReserveShortfall {
  reserve: bigint;
  /** The balance above the reserve (0 when the balance is below it). */
  spendable: bigint;
  /** The payment's amount and its fee. */
  needs: bigint;
}

/**
 * Whether sending `drops` with `fee` from `funds` keeps its reserve: null when what is left is at
 * least the reserve, else the numbers that say why not.
 */
export function xrplReserveShortfall(
  funds: XrplAccountFunds,
  settings: XrplReserveSettings,
  spend: { drops: bigint; fee: bigint },
): XrplReserveShortfall | null {
  const reserve = xrplAccountReserve(settings, funds.ownerCount);
  const needs = spend.drops + spend.fee;
  if (funds.balance - needs >= reserve) return null;
  const above = funds.balance - reserve;
  return { reserve, spendable: above > 0n ? above : 0n, needs };
}
