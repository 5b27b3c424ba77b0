/**
 * What `npm run sandbox -- ...` asks for (scripts/sandbox.ts runs it and prints the answer), or
 * the mistake in its arguments: a pure function, tested in-process (docs/decisions/128).
 */
import type { AdminCommand } from '../../lib/admin';
import { parseArguments, UsageError } from './command-line';

export const SANDBOX_USAGE = `usage:
  npm run sandbox -- pay ORDER_ID|ADDRESS AMOUNT [--currency TICKER] [--tag TAG]
  npm run sandbox -- mine NETWORK [COUNT] [--at ISO_TIME]
  npm run sandbox -- reset-clock NETWORK
  npm run sandbox -- broadcast-raw --network NETWORK HEX`;

/** The sandbox's commands of lib/admin. */
type SandboxCommand = Extract<
  AdminCommand,
  { command: 'sandbox.pay' | 'sandbox.mine' | 'sandbox.reset-clock' | 'sandbox.broadcast-raw' }
>;

export interface SandboxRequest {
  command: SandboxCommand;
  /** --json: the answer as JSON rather than in words. */
  json: boolean;
}

/** The command `args` ask for; a UsageError (printed with the usage, exit 2) when they ask for none. */
export function sandboxRequest(args: string[]): SandboxRequest {
  const { positionals, values } = parseArguments(
    args,
    {
      currency: { type: 'string' },
      tag: { type: 'string' },
      at: { type: 'string' },
      json: { type: 'boolean' },
      network: { type: 'string' },
    },
    SANDBOX_USAGE,
  );
  const json = values.json === true;
  const [action, ...rest] = positionals;
  if (action === 'pay' && rest.length === 2) {
    const [target, amount] = rest as [string, string];
    return { command: { command: 'sandbox.pay', target, amount, currency: values.currency, tag: values.tag }, json };
  }
  if (action === 'mine' && rest.length >= 1 && rest.length <= 2) {
    const count = rest[1] === undefined ? 1 : Number(rest[1]);
    if (!Number.isInteger(count) || count < 1 || count > 1000)
      throw new UsageError(`COUNT must be an integer from 1 to 1000\n${SANDBOX_USAGE}`);
    // A block dated later than now lets an order expire on chain time without waiting for it.
    const at = values.at;
    if (at !== undefined && Number.isNaN(Date.parse(at)))
      throw new UsageError(`--at must be an ISO 8601 time such as 2030-01-01T00:00:00Z\n${SANDBOX_USAGE}`);
    return {
      command: {
        command: 'sandbox.mine',
        network: rest[0]!,
        count,
        ...(at === undefined ? {} : { at: new Date(at).toISOString() }),
      },
      json,
    };
  }
  if (action === 'reset-clock' && rest.length === 1)
    return { command: { command: 'sandbox.reset-clock', network: rest[0]! }, json };
  if (action === 'broadcast-raw' && rest.length === 1 && values.network !== undefined)
    return {
      command: {
        command: 'sandbox.broadcast-raw',
        network: values.network,
        transaction: rest[0]!.trim().toLowerCase(),
      },
      json,
    };
  throw new UsageError(SANDBOX_USAGE);
}
