/**
 * Chain time (docs/decisions/006): the one clock a watcher judges orders by. A transfer first seen
 * in a block is dated by the chain time at that block, and the expiry sweeper decides an order
 * once the chain time at the cursor is past its deadline, so that reading the same blocks in one
 * step or in several decides an order the same way.
 *
 * A block's own time will not do: UTXO chains accept a block dated before its parent (only after
 * the median of the last eleven), which happens to about 1-2 % of blocks, more on Dogecoin. Their
 * median-time-past goes forward but trails real time by about an hour on bitcoin: every order
 * would expire an hour late. A running maximum of block times goes forward without that lag, but
 * one block dated two hours ahead (which consensus allows) would carry it, and every order with
 * it, two hours into the future. Chain time is therefore the running maximum of block times, each
 * taken no further ahead than the gateway's own clock plus a small tolerance.
 *
 * The sandbox ledger of test mode is the test world's clock (decision 016): its block times are
 * its chain time, ahead of the wall clock when a block is dated ahead on purpose, and put back
 * when the blocks dated ahead are reorganised away.
 */

/**
 * How far ahead of the gateway's clock a block may carry chain time: miners' clocks and the
 * gateway's each drift by seconds, and a block's time is set when its template is built. More
 * would let a block dated ahead make the payments of the blocks after it late by as much.
 */
export const CHAIN_TIME_TOLERANCE_MS = 2 * 60_000;

/**
 * The chain time at each of `blocks` (in chain order), from the chain time before the first.
 * `ledger` is the sandbox's: there each block's time is the chain time.
 */
export function chainTimes(before: Date, blocks: readonly { time: Date }[], now: Date, ledger: boolean): Date[] {
  if (ledger) return blocks.map((block) => block.time);
  const ceiling = now.getTime() + CHAIN_TIME_TOLERANCE_MS;
  let time = before.getTime();
  return blocks.map((block) => {
    time = Math.max(time, Math.min(block.time.getTime(), ceiling));
    return new Date(time);
  });
}
