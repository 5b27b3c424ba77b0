/**
 * npm run webhooks -- list ORDER_ID     the order's webhook events and every attempt (time, status, latency, answer)
 * npm run webhooks -- resend EVENT_ID   sends an event again now, with the same x-webhook-id and body
 *
 * Works with and without a running server (lib/admin/commands.ts, scripts/cli-runtime.ts). The
 * arguments are read by scripts/lib/webhooks-request.ts.
 */
import type { WebhookEvent } from '../lib/protocol';
import { commandLine, fail, runCommand } from './cli-runtime';
import { WEBHOOKS_USAGE, webhooksRequest } from './lib/webhooks-request';

function print(event: WebhookEvent): void {
  const when = event.state === 'pending' && event.nextAttemptAt ? `, next attempt ${event.nextAttemptAt}` : '';
  const about =
    event.kind === 'invoice' ? `invoice ${event.invoiceId} ${event.invoiceStatus}` : `order ${event.orderStatus}`;
  console.log(`${event.id}  ${event.kind} webhook (${about})  ${event.state}, ${event.attempts} attempt(s)${when}`);
  console.log(`  ${event.url}`);
  for (const a of event.log) {
    const status = a.statusCode === null ? a.outcome : `${a.statusCode} ${a.outcome}`;
    const answer = a.responseExcerpt ? `  ${JSON.stringify(a.responseExcerpt.slice(0, 120))}` : '';
    console.log(`  #${a.attempt}  ${a.at}  ${status}  ${a.latencyMs} ms${a.error ? `  ${a.error}` : ''}${answer}`);
  }
}

async function main(): Promise<void> {
  const { command, json } = commandLine(WEBHOOKS_USAGE, webhooksRequest);
  if (command.command === 'webhooks.list') {
    const events = (await runCommand(command)) as WebhookEvent[];
    if (json) return void console.log(JSON.stringify(events));
    if (events.length === 0)
      console.log(`No webhooks for order ${command.orderId} (not final yet, no URL for its status, or no such order).`);
    for (const event of events) print(event);
    return;
  }
  const event = (await runCommand(command)) as WebhookEvent;
  if (json) return void console.log(JSON.stringify(event));
  print(event);
  console.log(event.state === 'pending' ? 'Queued: it is sent at once.' : 'Not queued again.');
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
