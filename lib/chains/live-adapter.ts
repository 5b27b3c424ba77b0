import 'server-only';
import type { ChainAdapter } from './adapter';
import type { RpcStats } from './rpc-stats';

/** A ChainAdapter over a real node: it also counts what it asks the node (npm run bench:chains). */
export interface LiveAdapter extends ChainAdapter {
  readonly stats: RpcStats;
}
