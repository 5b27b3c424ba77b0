/**
 * npm run collect -- treasury MERCHANT NETWORK ADDRESS [--mode live|test]   sets where collections of NETWORK go
 * npm run collect -- funds MERCHANT [--mode live|test]                      what the deposit outputs hold, per network
 * npm run collect -- prepare MERCHANT NETWORK [--fee-rate N] [--minimum N] [--mode ...] [--out FILE]
 *   [--currency TICKER] [--fee-payer ADDRESS --fee-payer-path PATH]          a collection plan for `npm run signer`
 *                                                                           (EVM, Tron: the fee payer kept in the settings unless named)
 * npm run collect -- refund MERCHANT REFUND_ID [--fee-from-refund] [--fee-rate N] [--mode ...] [--out FILE]
 *                                                                           a plan that pays a ready refund
 * npm run collect -- show MERCHANT PLAN_ID [--mode ...] [--out FILE]        a plan and its status
 * npm run collect -- gap-limit NETWORK [--mode ...]                         the gap limit a wallet importing the key needs
 *
 * The gateway prepares and watches; the plan is signed on the merchant's machine by
 * `npm run signer` (docs/collections.md). Works with and without a running server.
 */
import fs from 'node:fs';
import type { MoneyOutPlan, RawRefundPlan, StoredAccountPlan } from '../lib/protocol';
import { fail, parseCommandLine, runCommand } from './cli-runtime';
import { planSummary } from './lib/plan-summary';

const USAGE = `usage:
  npm run collect -- treasury MERCHANT NETWORK ADDRESS [--mode live|test]
  npm run collect -- fee-payer MERCHANT NETWORK ADDRESS PATH [--mode live|test]
  npm run collect -- funds MERCHANT [--mode live|test] [--json]
  npm run collect -- prepare MERCHANT NETWORK [--fee-rate BASE_UNITS_PER_VBYTE] [--minimum BASE_UNITS] [--mode live|test] [--out FILE]
      EVM and Tron: [--currency TICKER] [--fee-payer ADDRESS --fee-payer-path PATH]
  npm run collect -- refund MERCHANT REFUND_ID [--fee-from-refund] [--fee-rate BASE_UNITS_PER_VBYTE] [--mode live|test] [--out FILE]
  npm run collect -- show MERCHANT PLAN_ID [--mode live|test] [--out FILE]
  npm run collect -- gap-limit NETWORK [--mode live|test]`;

async function main(): Promise<void> {
  const { positionals, values } = parseCommandLine(
    {
      mode: { type: 'string', default: 'live' },
      'fee-rate': { type: 'string' },
      minimum: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean' },
      'fee-from-refund': { type: 'boolean' },
      currency: { type: 'string' },
      'fee-payer': { type: 'string' },
      'fee-payer-path': { type: 'string' },
    },
    USAGE,
  );
  const [action, merchant, ...rest] = positionals;
  const mode = values.mode;
  if (!merchant || (mode !== 'live' && mode !== 'test')) fail(USAGE);
  if (action === 'gap-limit' && rest.length === 0) {
    // The key is the gateway's per network (not yet per merchant): the second word is the network.
    const gap = (await runCommand({ command: 'collect.gap-limit', network: merchant, mode })) as {
      highestUsed: number | null;
      longestUnusedRun: number;
    };
    return void console.log(
      gap.highestUsed === null
        ? `No ${merchant} address of the key has received anything yet.`
        : `Highest used address index ${gap.highestUsed}; a wallet importing the key needs a gap limit above ${gap.longestUnusedRun}.`,
    );
  }
  if (action === 'treasury' && rest.length === 2) {
    const [network, address] = rest as [string, string];
    await runCommand({ command: 'collect.treasury', merchant, network, mode, address });
    return void console.log(`Collections of ${network} (${mode}) now go to ${address.trim()}.`);
  }
  if (action === 'fee-payer' && rest.length === 3) {
    const [network, address, path] = rest as [string, string, string];
    const kept = (await runCommand({ command: 'collect.fee-payer', merchant, network, mode, address, path })) as {
      network: string;
      address: string;
      path: string;
    };
    return void console.log(
      `${kept.network} (${mode}) fees are now paid by ${kept.address} (${kept.path}) when a prepare names no fee payer.`,
    );
  }
  if (action === 'funds' && rest.length === 0) {
    const lines = (await runCommand({ command: 'collect.funds', merchant, mode })) as {
      network: string;
      currency: string;
      total: string;
      addresses: number;
      estimatedCost: string | null;
    }[];
    if (values.json) return void console.log(JSON.stringify(lines));
    if (lines.length === 0) console.log('Nothing held in deposit addresses.');
    for (const l of lines)
      console.log(
        `${l.network} ${l.currency}: ${l.total} base units in ${l.addresses} addresses; to collect ${l.estimatedCost ?? '(no fee estimate)'}`,
      );
    return;
  }
  let plan: MoneyOutPlan | RawRefundPlan | StoredAccountPlan;
  if (action === 'prepare' && rest.length === 1) {
    // A fee payer is its address and its path, both or neither.
    const [payer, payerPath] = [values['fee-payer'], values['fee-payer-path']];
    if ((payer === undefined) !== (payerPath === undefined)) return fail(USAGE);
    plan = (await runCommand({
      command: 'collect.prepare',
      merchant,
      network: rest[0]!,
      mode,
      ...(values['fee-rate'] ? { feeRate: values['fee-rate'] } : {}),
      ...(values.minimum ? { minimum: values.minimum } : {}),
      ...(values.currency ? { currency: values.currency } : {}),
      ...(payer !== undefined && payerPath !== undefined ? { feePayer: { address: payer, path: payerPath } } : {}),
    })) as MoneyOutPlan | StoredAccountPlan;
  } else if (action === 'refund' && rest.length === 1) {
    plan = (await runCommand({
      command: 'collect.refund',
      merchant,
      mode,
      refundId: rest[0]!,
      feeFromRefund: values['fee-from-refund'] === true,
      ...(values['fee-rate'] ? { feeRate: values['fee-rate'] } : {}),
    })) as MoneyOutPlan | RawRefundPlan;
  } else if (action === 'show' && rest.length === 1) {
    plan = (await runCommand({ command: 'collect.show', merchant, mode, planId: rest[0]! })) as
      MoneyOutPlan | StoredAccountPlan;
  } else return fail(USAGE);
  if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(plan, null, 2)}\n`);
  console.log(planSummary(plan));
  if (values.out)
    console.log(`Plan written to ${values.out}: sign it with npm run signer -- sign --plan ${values.out} ...`);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
