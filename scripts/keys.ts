/**
 * npm run keys -- create --name NAME --mode test|live   prints a new key pair once
 * npm run keys -- list                                   merchants and their public keys
 * npm run keys -- revoke PUBLIC_KEY                      revokes a key at once
 * npm run keys -- deposit-key MERCHANT NETWORK DESCRIPTOR|WALLET|ACCOUNT [--mode live|test]
 *                                                        the merchant's own deposit key (docs/collections.md),
 *                                                        on Solana its receiving wallet, on the XRP Ledger
 *                                                        (ripple) its receiving account's r... address
 */
import { fail, runCommand, parseCommandLine } from './cli-runtime';

const USAGE = `usage:
  npm run keys -- create --name NAME --mode test|live
  npm run keys -- list
  npm run keys -- revoke PUBLIC_KEY
  npm run keys -- deposit-key MERCHANT NETWORK DESCRIPTOR|WALLET|ACCOUNT [--mode live|test]
      DESCRIPTOR on the Bitcoin family, a WALLET address on solana, an r... ACCOUNT on ripple`;

async function main(): Promise<void> {
  const { positionals, values } = parseCommandLine(
    { name: { type: 'string' }, mode: { type: 'string' }, json: { type: 'boolean' } },
    USAGE,
  );
  const [action, ...rest] = positionals;
  if (action === 'create') {
    if (!values.name) fail(`--name is required\n${USAGE}`);
    if (values.mode !== 'test' && values.mode !== 'live') fail(`--mode must be test or live\n${USAGE}`);
    const keys = (await runCommand({ command: 'keys.create', name: values.name, mode: values.mode })) as {
      merchantId: string;
      name: string;
      mode: string;
      publicKey: string;
      privateKey: string;
    };
    if (values.json) return void console.log(JSON.stringify(keys));
    console.log(`Merchant:    ${keys.name} (${keys.merchantId})`);
    console.log(`Mode:        ${keys.mode}`);
    console.log(`Public key:  ${keys.publicKey}`);
    console.log(`Private key: ${keys.privateKey}`);
    console.log('\nThe private key is shown only now; it is stored encrypted and cannot be shown again.');
    return;
  }
  if (action === 'list') {
    const merchants = (await runCommand({ command: 'keys.list' })) as {
      id: string;
      name: string;
      keys: { publicKey: string; mode: string; revoked: boolean }[];
    }[];
    if (values.json) return void console.log(JSON.stringify(merchants));
    for (const m of merchants) {
      console.log(`${m.name} (${m.id})`);
      for (const k of m.keys) console.log(`  ${k.mode.padEnd(4)} ${k.publicKey}${k.revoked ? '  (revoked)' : ''}`);
    }
    return;
  }
  if (action === 'revoke' && rest[0]) {
    const { revoked } = (await runCommand({ command: 'keys.revoke', publicKey: rest[0] })) as { revoked: boolean };
    if (!revoked) fail(`No active key ${rest[0]}.`);
    console.log(`Revoked ${rest[0]}.`);
    return;
  }
  if (action === 'deposit-key' && rest.length === 3) {
    // The merchant's own extended public key with its origin (a Solana wallet, an XRP Ledger
    // account): its deposits are its own seed's.
    const [merchant, network, key] = rest as [string, string, string];
    const mode = values.mode ?? 'live';
    if (mode !== 'test' && mode !== 'live') fail(`--mode must be test or live\n${USAGE}`);
    const set = (await runCommand({ command: 'keys.deposit-key', merchant, network, mode, key })) as {
      network: string;
      mode: string;
      key: string;
      keyFingerprint: string;
      dropped: number;
    };
    if (values.json) return void console.log(JSON.stringify(set));
    console.log(`${set.network} (${set.mode}) deposits of ${merchant} now come from ${set.key}`);
    if (set.dropped > 0) console.log(`${set.dropped} unissued addresses of the earlier key were dropped.`);
    return;
  }
  fail(USAGE);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
