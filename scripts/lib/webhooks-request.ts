/**
 * What `npm run webhooks -- ...` asks for (scripts/webhooks.ts runs it and prints the answer), or
 * the mistake in its arguments: a pure function, tested in-process (docs/decisions/128).
 */
import type { AdminCommand } from '../../lib/admin';
import { isUuid } from '../../lib/protocol';
import { parseArguments, UsageError } from './command-line';

export const WEBHOOKS_USAGE = `usage:
  npm run webhooks -- list ORDER_ID [--json]
  npm run webhooks -- resend EVENT_ID [--json]`;

export interface WebhooksRequest {
  command: Extract<AdminCommand, { command: 'webhooks.list' | 'webhooks.resend' }>;
  /** --json: the answer as JSON rather than in words. */
  json: boolean;
}

/** The command `args` ask for; a UsageError (printed with the usage, exit 2) when they ask for none. */
export function webhooksRequest(args: string[]): WebhooksRequest {
  const { positionals, values } = parseArguments(args, { json: { type: 'boolean' } }, WEBHOOKS_USAGE);
  const json = values.json === true;
  const [action, id, ...rest] = positionals;
  if (rest.length > 0 || !id) throw new UsageError(WEBHOOKS_USAGE);
  if (!isUuid(id)) throw new UsageError(`${id} is not an id (a UUID)\n${WEBHOOKS_USAGE}`);
  if (action === 'list') return { command: { command: 'webhooks.list', orderId: id }, json };
  if (action === 'resend') return { command: { command: 'webhooks.resend', eventId: id }, json };
  throw new UsageError(WEBHOOKS_USAGE);
}
