/**
 * npm run sandbox -- pay ORDER_ID|ADDRESS AMOUNT [--currency X] [--tag T]   simulated payment (test mode)
 * npm run sandbox -- mine NETWORK [COUNT] [--at ISO_TIME]                     mines sandbox blocks now (dated --at)
 * npm run sandbox -- reset-clock NETWORK                                       undoes --at: blocks follow the wall clock again
 * npm run sandbox -- broadcast-raw --network NETWORK HEX                       a signed transaction, taken after the sandbox's checks
 *
 * Payments go onto the sandbox ledger and reach the order through the watcher, as real ones do. A
 * signed transaction (a plan's, signed by `npm run signer`) goes to the sandbox as collections/submit
 * hands it (docs/decisions/109); refused: why, exit 1, nothing written.
 */
import { fail, runCommand, parseCommandLine } from './cli-runtime';

const USAGE = `usage:
  npm run sandbox -- pay ORDER_ID|ADDRESS AMOUNT [--currency TICKER] [--tag TAG]
  npm run sandbox -- mine NETWORK [COUNT] [--at ISO_TIME]
  npm run sandbox -- reset-clock NETWORK
  npm run sandbox -- broadcast-raw --network NETWORK HEX`;

async function main(): Promise<void> {
  const { positionals, values } = parseCommandLine(
    {
      currency: { type: 'string' },
      tag: { type: 'string' },
      at: { type: 'string' },
      json: { type: 'boolean' },
      network: { type: 'string' },
    },
    USAGE,
  );
  const [action, ...rest] = positionals;
  if (action === 'pay' && rest.length === 2) {
    const [target, amount] = rest as [string, string];
    const paid = (await runCommand({
      command: 'sandbox.pay',
      target,
      amount,
      currency: values.currency,
      tag: values.tag,
    })) as {
      txHash: string;
      network: string;
      currency: string;
      amount: string;
      address: string;
      tag: string | null;
    };
    if (values.json) return void console.log(JSON.stringify(paid));
    console.log(paid.txHash);
    console.error(
      `Sent ${paid.amount} ${paid.currency} on ${paid.network} (sandbox) to ${paid.address}${paid.tag ? ` tag ${paid.tag}` : ''}.`,
    );
    return;
  }
  if (action === 'mine' && rest.length >= 1 && rest.length <= 2) {
    const count = rest[1] === undefined ? 1 : Number(rest[1]);
    if (!Number.isInteger(count) || count < 1 || count > 1000)
      fail(`COUNT must be an integer from 1 to 1000\n${USAGE}`);
    // A block dated later than now lets an order expire on chain time without waiting for it.
    const at = values.at;
    if (at !== undefined && Number.isNaN(Date.parse(at)))
      fail(`--at must be an ISO 8601 time such as 2030-01-01T00:00:00Z\n${USAGE}`);
    const mined = (await runCommand({
      command: 'sandbox.mine',
      network: rest[0]!,
      count,
      ...(at === undefined ? {} : { at: new Date(at).toISOString() }),
    })) as {
      network: string;
      height: number;
    };
    console.log(`${mined.network}: mined to height ${mined.height}`);
    return;
  }
  if (action === 'reset-clock' && rest.length === 1) {
    const reset = (await runCommand({ command: 'sandbox.reset-clock', network: rest[0]! })) as {
      network: string;
      height: number;
      time: string;
      removed: number;
    };
    if (values.json) return void console.log(JSON.stringify(reset));
    console.log(
      reset.removed === 0
        ? `${reset.network}: no block is dated ahead of now; tip at height ${reset.height}`
        : `${reset.network}: removed ${reset.removed} block(s) dated ahead of now; tip at height ${reset.height} (${reset.time}), the next block is dated now`,
    );
    return;
  }
  if (action === 'broadcast-raw' && rest.length === 1 && values.network !== undefined) {
    let taken: { network: string; txid: string };
    try {
      taken = (await runCommand({
        command: 'sandbox.broadcast-raw',
        network: values.network,
        transaction: rest[0]!.trim().toLowerCase(),
      })) as typeof taken;
    } catch (error) {
      // Not a usage mistake: the transaction was looked at and refused (exit 1, as a node's CLI does).
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    }
    if (values.json) return void console.log(JSON.stringify(taken));
    console.log(taken.txid);
    console.error(`Taken by the sandbox's ${taken.network}: it is mined in the next block.`);
    return;
  }
  fail(USAGE);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
