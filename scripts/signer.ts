/**
 * `npm run signer -- sign --plan PLAN.json --config SIGNER.json [--seed-file FILE] [--out FILE] [--yes]`
 * `npm run signer -- sign --from-api URL --plan-id ID --api-key KEY.json --config SIGNER.json [...]`
 * `npm run signer -- sign --from-api URL --refund-id ID --api-key KEY.json --config SIGNER.json [...]`
 *
 * The one program that touches a private key, run by the merchant on its own machine (offline for
 * PSBTs): it reads a collection or refund plan the gateway prepared, derives the keys it needs from
 * the merchant's seed, and signs only what its own configuration allows (scripts/signer/sign-plan.ts,
 * docs/decisions/052 and 081). The refunds it signs are kept in its own ledger file, which the next
 * refund is checked against: keep it with the configuration (and back it up). The seed is typed at a prompt, or read from a file the merchant names; it is
 * never written, logged or sent anywhere. It imports nothing of the gateway's server side: it runs
 * without `--conditions=react-server`, so a server-only module would stop it at once.
 *
 * With `--from-api` it reads the plan from the gateway (`collections/get`, or a refund's plan with
 * `refund-plans/get`, with a key of the signing-plans scope) and checks it exactly as a file's, then
 * posts the signed transaction back (`collections/submit`), a refund kept in its ledger first: the
 * gateway takes only the plan's own transaction and broadcasts it (./signer/from-api.ts). A Solana
 * refund plan is sent to the signer's own node instead, with a blockhash it gives (./signer/solana.ts).
 *
 * The signed transaction (hex, to broadcast with the merchant's node or any block explorer) and the
 * signed PSBT are written as JSON to --out, or printed; for a Tron plan, each step's signed
 * transaction (hex, for /wallet/broadcasthex) in the order they are broadcast. Exit status: 0 signed, 1 refused, 2 usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline/promises';
import { z } from 'zod';
import {
  nodeInChainCheck,
  nodeUnspentCheck,
  rootOfPhrase,
  seedOfPhrase,
  signerConfigSchema,
  signPlan,
  type SignOutcome,
  type Signed,
} from './signer/sign-plan';
import { solanaPrivateKeyOfSeed, solanaWalletOfPrivateKey } from '../lib/chains/solana/transactions';
import { solanaRefundPlanSchema, type TronRefundPlan, type XrplRefundPlan } from '../lib/protocol';
import { signAndSendSolanaRefund, solanaNode, solanaSignerConfigSchema } from './signer/solana';
import { ledgerSchema, type RefundLedger } from './signer/refunds';
import { signTronPlan, tronPlanOf, tronSignerConfigSchema } from './signer/tron';
import { SignerRefusal } from '../lib/chains/utxo/transactions';
import { evmSignerConfigSchema, signEvmPlanText } from './signer/sign-evm';
import { apiKeyFileSchema, readPlan, type GatewayClient, type PlanAsked } from './signer/api';
import { asksForHelp } from './lib/command-line';
import { answerRefusals, submitSigned } from './signer/from-api';
import { evmRefundPlanOf, nodePaymentReader, signEvmRefundPlan } from './signer/sign-evm-refund';
import { nodeTronPaymentReader, signTronRefundPlan, tronRefundPlanOf } from './signer/sign-tron-refund';
import {
  nodeXrplPaymentReader,
  signXrplRefundPlan,
  xrplRefundPlanOf,
  xrplSignerConfigSchema,
} from './signer/sign-xrpl-refund';

const USAGE = `usage: npm run signer -- sign --plan PLAN.json --config SIGNER.json [--seed-file FILE] [--out FILE] [--yes]
       npm run signer -- sign --from-api URL --plan-id ID --api-key KEY.json --config SIGNER.json [...]
       npm run signer -- sign --from-api URL --refund-id ID --api-key KEY.json --config SIGNER.json [...]

  --plan       the plan the gateway prepared (dashboard "Collections", or collections/get)
  --from-api   the gateway's base URL: read collection plan --plan-id, or the plan of refund
               --refund-id, from it and submit the signed transaction back, with the key in --api-key
               ({"publicKey", "privateKey"}: a key of the signing-plans scope); the plan is checked
               exactly as a file's, and a refund is kept in the ledger before the signature leaves
  --config     this signer's own settings: {"network", "chain", "treasury", "maxFee", "node"?,
               "refundDailyCap"?, "ledger"?}; for an EVM network {"family": "evm", "network",
               "chainId", "treasury", "tokens", "gasPayerPath"?, "maxGasPayerSpend", and for
               refunds "treasuryPath", "node": {"url"}, "refundDailyCaps": {"USDT": "500"}, "ledger"?}; for Tron
               {"network": "tron", "chain", "treasury", "tokens", "maxBurn", "resourcePath"?; for refunds
               "treasuryPath", "node": {"url", "apiKey"?}, "refundDailyCaps": {"TRX": "500"}, "ledger"?}; for
               Solana refunds {"network": "solana", "rpc", "refundDailyCaps", "account"?,
               "keypairFile"?, "ledger"?}: the payment is read, the blockhash taken and the signed
               transaction sent through "rpc", your own node; for XRP Ledger refunds {"network": "ripple",
               "chain", "account", "maxFee", "node": {"url"}, "refundDailyCaps": {"XRP": "500"}, "ledger"?}
  --seed-file  a file holding the BIP 39 phrase, or the XRP account's family seed (otherwise it is asked
               for; nothing is echoed)
  --out        where to write the signed transaction (default: printed)
  --yes        sign without asking (the outputs and the fee are still printed)`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

async function ask(question: string, hidden = false): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  if (hidden && process.stdin.isTTY) {
    // Nothing of the phrase is echoed: the prompt is written once, keystrokes are not.
    const output = rl as unknown as { _writeToOutput?: (s: string) => void };
    process.stderr.write(question);
    output._writeToOutput = () => {};
    const answer = await rl.question('');
    process.stderr.write('\n');
    rl.close();
    return answer;
  }
  const answer = await rl.question(question);
  rl.close();
  return answer;
}

/** The configuration `schema` reads from `configJson`, or undefined with its issues printed (a usage error). */
function configOf<T>(schema: z.ZodType<T>, configFile: string, configJson: unknown): T | undefined {
  const parsed = schema.safeParse(configJson);
  if (parsed.success) return parsed.data;
  console.error(`${configFile}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return undefined;
}

/** Prints a summary and asks `question` of it; yes at once with --yes. */
function confirmer(args: string[], question: string): (summary: string) => Promise<boolean> {
  return async (summary) => {
    console.error(summary);
    if (args.includes('--yes')) return true;
    return /^y(es)?$/i.test((await ask(`${question} (yes/no) `)).trim());
  };
}

/** The secret from --seed-file, or typed at `prompt` (nothing echoed). */
async function secretOf(args: string[], prompt = 'Seed phrase (BIP 39): '): Promise<string> {
  const seedFile = option(args, '--seed-file');
  return seedFile ? fs.readFileSync(seedFile, 'utf8') : ask(prompt, true);
}

/**
 * The refund ledger (the file the configuration names, beside it, or signer-ledger.json there) as
 * read, and how to keep the next one: written, readable by its owner only, before a signed refund
 * leaves this program, so that a refund signed is counted whether it is sent or not.
 */
function refundLedger(
  configFile: string,
  named: string | undefined,
): { ledger: RefundLedger; keepLedger(next: RefundLedger): void } {
  const file = named
    ? path.resolve(path.dirname(configFile), named)
    : path.join(path.dirname(configFile), 'signer-ledger.json');
  const ledger: RefundLedger = fs.existsSync(file)
    ? ledgerSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')))
    : { refunds: [] };
  return {
    ledger,
    keepLedger: (next) => fs.writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 }),
  };
}

/** Writes a signed transaction out (--out, or printed) and says its id. */
function signedWriter(args: string[]): (signed: Signed) => void {
  const out = option(args, '--out');
  return (signed) => {
    writeOut(args, signed);
    console.error(`signed: transaction ${signed.txid}${out ? ` written to ${out}` : ''}`);
  };
}

/**
 * One transaction signed by `sign`: with --from-api submitted to the gateway (./signer/from-api.ts
 * keeps the ledger first); from a file, its refund kept in the ledger, then written out.
 */
async function finishSigned(
  api: { client: GatewayClient; asked: PlanAsked } | undefined,
  planText: string,
  io: { ledger: RefundLedger; keepLedger(next: RefundLedger): void; onSigned(signed: Signed): void },
  sign: () => Promise<SignOutcome>,
): Promise<number> {
  if (api) {
    const { submitted } = await submitSigned(api.client, api.asked, planText, sign, io);
    console.error(`submitted: the gateway's node took transaction ${submitted.txid} (plan ${submitted.status})`);
    return 0;
  }
  const { signed, ledgerEntry } = await sign();
  if (ledgerEntry) io.keepLedger({ refunds: [...io.ledger.refunds, ledgerEntry] });
  io.onSigned(signed);
  return 0;
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  // As every CLI answers it (scripts/cli-runtime.ts `commandLine`, which the signer does not load:
  // it is the gateway's side).
  if (asksForHelp(process.argv.slice(2))) {
    console.log(USAGE);
    return 0;
  }
  const planFile = option(args, '--plan');
  const configFile = option(args, '--config');
  const api = fromApi(args);
  if (command !== 'sign' || !configFile || (planFile === undefined) === (api === undefined) || api === null) {
    console.error(USAGE);
    return 2;
  }
  const configJson: unknown = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  if ((configJson as { family?: unknown } | null)?.family === 'evm')
    return signEvm(args, planFile, configFile, configJson, api);
  const planText = api ? await readPlan(api.client, api.asked) : fs.readFileSync(planFile!, 'utf8');
  let planJson: unknown;
  try {
    planJson = JSON.parse(planText);
  } catch {
    throw new Error('the plan is not JSON');
  }
  if (api) {
    const refusals = answerRefusals(planJson, api.asked);
    if (refusals.length > 0) throw new SignerRefusal(refusals);
  }
  if ((planJson as { format?: unknown } | null)?.format === 'solana')
    return signSolana(args, planJson, configFile, configJson);
  const xrplRefund = xrplRefundPlanOf(planJson);
  if (xrplRefund) return signXrplRefund(args, xrplRefund, planText, configFile, configJson, api);
  const tronRefund = tronRefundPlanOf(planJson);
  if (tronRefund) return signTronRefund(args, tronRefund, planText, configFile, configJson, api);
  const tronPlan = tronPlanOf(planJson);
  if (tronPlan) {
    const tronConfig = configOf(tronSignerConfigSchema, configFile, configJson);
    if (!tronConfig) return 2;
    const root = rootOfPhrase(await secretOf(args));
    const signed = await signTronPlan(tronPlan, tronConfig, root, confirmer(args, 'Sign these transactions?'));
    writeOut(args, signed);
    console.error(
      `signed: ${signed.transactions.length} transactions${option(args, '--out') ? ` written to ${option(args, '--out')}` : ''}`,
    );
    return 0;
  }
  const config = configOf(signerConfigSchema, configFile, configJson);
  if (!config) return 2;
  const kept = refundLedger(configFile, config.ledger);
  const root = rootOfPhrase(await secretOf(args));
  const io = {
    unspent: config.node ? nodeUnspentCheck(config.node) : undefined,
    inChain: config.node ? nodeInChainCheck(config.node) : undefined,
    ...kept,
    onSigned: signedWriter(args),
    confirm: confirmer(args, 'Sign this transaction?'),
  };
  return finishSigned(api, planText, io, () => signPlan(planText, config, root, io));
}

/**
 * `--from-api URL (--plan-id ID | --refund-id ID) --api-key FILE`: undefined when not asked for,
 * null when a part is missing or the key file is not a key (a usage error).
 */
function fromApi(args: string[]): { client: GatewayClient; asked: PlanAsked } | null | undefined {
  const url = option(args, '--from-api');
  if (url === undefined) return undefined;
  const planId = option(args, '--plan-id');
  const refundId = option(args, '--refund-id');
  const keyFile = option(args, '--api-key');
  if (!planId === !refundId || !keyFile || !/^https?:\/\//.test(url)) return null;
  const key = apiKeyFileSchema.safeParse(JSON.parse(fs.readFileSync(keyFile, 'utf8')));
  if (!key.success) {
    console.error(`${keyFile}: not an API key file {"publicKey", "privateKey"}`);
    return null;
  }
  const asked: PlanAsked = planId ? { kind: 'collection', planId } : { kind: 'refund', refundId: refundId! };
  return { client: { baseUrl: url, key: key.data }, asked };
}

/**
 * A Solana refund plan (docs/decisions/106, 111): checked against this signer's node, wallet,
 * ledger and caps, confirmed, kept in the ledger, then signed with a blockhash of its node and
 * sent there; the watcher completes the refund when it sees the transfer.
 */
async function signSolana(args: string[], planJson: unknown, configFile: string, configJson: unknown): Promise<number> {
  const config = configOf(solanaSignerConfigSchema, configFile, configJson);
  if (!config) return 2;
  const plan = solanaRefundPlanSchema.safeParse(planJson);
  if (!plan.success)
    throw new Error(
      `the plan is not a Solana refund plan: ${plan.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  let privateKey: Uint8Array;
  if (config.keypairFile) {
    const bytes = z
      .array(z.number().int().min(0).max(255))
      .length(64)
      .safeParse(JSON.parse(fs.readFileSync(path.resolve(path.dirname(configFile), config.keypairFile), 'utf8')));
    if (!bytes.success) throw new Error(`${config.keypairFile}: not a keypair file (a JSON array of 64 bytes)`);
    privateKey = Uint8Array.from(bytes.data.slice(0, 32));
  } else {
    privateKey = solanaPrivateKeyOfSeed(seedOfPhrase(await secretOf(args)), config.account);
  }
  const { signature } = await signAndSendSolanaRefund(
    plan.data,
    config,
    solanaWalletOfPrivateKey(privateKey),
    privateKey,
    {
      node: solanaNode(config.rpc),
      ...refundLedger(configFile, config.ledger),
      confirm: confirmer(args, 'Sign and send this refund?'),
    },
  );
  console.error(
    `sent: transaction ${signature} to your Solana node; the gateway completes the refund when it is finalized`,
  );
  return 0;
}

/** The signed transactions as JSON, to --out (readable by its owner only) or printed. */
function writeOut(args: string[], signed: unknown): void {
  const out = option(args, '--out');
  const text = `${JSON.stringify(signed, null, 2)}\n`;
  if (out) fs.writeFileSync(out, text, { mode: 0o600 });
  else process.stdout.write(text);
}

/**
 * An EVM plan: a refund plan (docs/decisions/112; from a file, or read through the API and
 * submitted back), its signed transaction as JSON, the refund kept in the ledger first; or a
 * collection plan (a file), its signed transactions in the order they are to be sent.
 */
async function signEvm(
  args: string[],
  planFile: string | undefined,
  configFile: string,
  configJson: unknown,
  api: { client: GatewayClient; asked: PlanAsked } | undefined,
): Promise<number> {
  const config = configOf(evmSignerConfigSchema, configFile, configJson);
  if (!config) return 2;
  const planText = api ? await readPlan(api.client, api.asked) : fs.readFileSync(planFile!, 'utf8');
  let planJson: unknown;
  try {
    planJson = JSON.parse(planText);
  } catch {
    throw new Error('the plan is not JSON');
  }
  const refundPlan = evmRefundPlanOf(planJson);
  if (!refundPlan && api) {
    console.error('EVM collection plans are read from a file (--plan); --from-api reads refund plans (--refund-id)');
    return 2;
  }
  const root = rootOfPhrase(await secretOf(args));
  const confirm = confirmer(args, 'Sign?');
  if (!refundPlan) {
    const signed = await signEvmPlanText(planText, config, root, { confirm });
    writeOut(args, signed);
    const out = option(args, '--out');
    console.error(`signed: ${signed.transactions.length} transactions${out ? ` written to ${out}` : ''}`);
    return 0;
  }
  const io = {
    ...refundLedger(configFile, config.ledger),
    confirm,
    ...(config.node && { readPayment: nodePaymentReader(config.node.url, config.chainId) }),
    onSigned: signedWriter(args),
  };
  return finishSigned(api, planText, io, () => signEvmRefundPlan(refundPlan, config, root, io));
}

/**
 * A Tron refund plan (docs/decisions/115; from a file, or read through the API and submitted back):
 * its signed transaction as JSON, the refund kept in the ledger first.
 */
async function signTronRefund(
  args: string[],
  plan: TronRefundPlan,
  planText: string,
  configFile: string,
  configJson: unknown,
  api: { client: GatewayClient; asked: PlanAsked } | undefined,
): Promise<number> {
  const config = configOf(tronSignerConfigSchema, configFile, configJson);
  if (!config) return 2;
  const kept = refundLedger(configFile, config.ledger);
  const root = rootOfPhrase(await secretOf(args));
  const io = {
    ...kept,
    ...(config.node && { readPayment: nodeTronPaymentReader(config.node) }),
    confirm: confirmer(args, 'Sign this refund?'),
    onSigned: signedWriter(args),
  };
  return finishSigned(api, planText, io, () => signTronRefundPlan(plan, config, root, io));
}

/**
 * An XRP Ledger refund plan (docs/decisions/119; from a file, or read through the API and submitted
 * back): signed with the account's family seed (from --seed-file or typed; never written or sent),
 * its signed transaction as JSON, the refund kept in the ledger first.
 */
async function signXrplRefund(
  args: string[],
  plan: XrplRefundPlan,
  planText: string,
  configFile: string,
  configJson: unknown,
  api: { client: GatewayClient; asked: PlanAsked } | undefined,
): Promise<number> {
  const config = configOf(xrplSignerConfigSchema, configFile, configJson);
  if (!config) return 2;
  const kept = refundLedger(configFile, config.ledger);
  const seed = await secretOf(args, `Secret of ${config.account} (family seed s...): `);
  const io = {
    ...kept,
    ...(config.node && { readPayment: nodeXrplPaymentReader(config.node.url) }),
    confirm: confirmer(args, 'Sign this refund?'),
    onSigned: signedWriter(args),
  };
  return finishSigned(api, planText, io, () => signXrplRefundPlan(plan, config, seed, io));
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Messages name what was refused and why; none holds the seed or a key.
    console.error(error instanceof SignerRefusal ? error.message : `signer: ${(error as Error).message}`);
    process.exit(1);
  },
);
