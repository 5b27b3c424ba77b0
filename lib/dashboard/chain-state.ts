/**
 * What a network's watcher is doing, as the overview says it:
 * - `unhealthy`: the last pass failed (the error says why);
 * - `starting`: no block scanned yet;
 * - `idle`: following the chain, with no order of the merchant's waiting for a payment there. In
 *   test mode the sandbox makes a block only when some payment needs one, so its last block can
 *   be days old (the first is dated 1970): nothing is behind, there is simply nothing to do;
 * - `watching`: following the chain for the merchant's waiting orders.
 */
export type ChainState = 'unhealthy' | 'starting' | 'idle' | 'watching';

export function chainState(c: { healthy: boolean | null; height: number | null; waiting: number }): ChainState {
  if (c.healthy === false) return 'unhealthy';
  if (c.height === null) return 'starting';
  return c.waiting === 0 ? 'idle' : 'watching';
}
