/**
 * npm run sandbox -- pay ORDER_ID|ADDRESS AMOUNT [--currency X] [--tag T]   simulated payment (test mode)
 * npm run sandbox -- mine NETWORK [COUNT] [--at ISO_TIME]                     mines sandbox blocks now (dated --at)
 * npm run sandbox -- reset-clock NETWORK                                       undoes --at: blocks follow the wall clock again
 * npm run sandbox -- broadcast-raw --network NETWORK HEX                       a signed transaction, taken after the sandbox's checks
 *
 * Payments go onto the sandbox ledger and reach the order through the watcher, as real ones do. A
 * signed transaction (a plan's, signed by `npm run signer`) goes to the sandbox as collections/submit
 * hands it (docs/decisions/109); refused: why, exit 1, nothing written. The arguments are read by
 * scripts/lib/sandbox-request.ts.
 */
import type { SimulatedPayment } from '../lib/sandbox';
import { commandLine, fail, runCommand } from './cli-runtime';
import { SANDBOX_USAGE, sandboxRequest } from './lib/sandbox-request';

async function main(): Promise<void> {
  const { command, json } = commandLine(SANDBOX_USAGE, sandboxRequest);
  switch (command.command) {
    case 'sandbox.pay': {
      const paid = (await runCommand(command)) as SimulatedPayment;
      if (json) return void console.log(JSON.stringify(paid));
      console.log(paid.txHash);
      console.error(
        `Sent ${paid.amount} ${paid.currency} on ${paid.network} (sandbox) to ${paid.address}${paid.tag ? ` tag ${paid.tag}` : ''}.`,
      );
      return;
    }
    case 'sandbox.mine': {
      const mined = (await runCommand(command)) as { network: string; height: number };
      console.log(`${mined.network}: mined to height ${mined.height}`);
      return;
    }
    case 'sandbox.reset-clock': {
      const reset = (await runCommand(command)) as { network: string; height: number; time: string; removed: number };
      if (json) return void console.log(JSON.stringify(reset));
      console.log(
        reset.removed === 0
          ? `${reset.network}: no block is dated ahead of now; tip at height ${reset.height}`
          : `${reset.network}: removed ${reset.removed} block(s) dated ahead of now; tip at height ${reset.height} (${reset.time}), the next block is dated now`,
      );
      return;
    }
    case 'sandbox.broadcast-raw': {
      let taken: { network: string; txid: string };
      try {
        taken = (await runCommand(command)) as typeof taken;
      } catch (error) {
        // Not a usage mistake: the transaction was looked at and refused (exit 1, as a node's CLI does).
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      }
      if (json) return void console.log(JSON.stringify(taken));
      console.log(taken.txid);
      console.error(`Taken by the sandbox's ${taken.network}: it is mined in the next block.`);
      return;
    }
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
