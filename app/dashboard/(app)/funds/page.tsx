import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { z } from 'zod';
import { Amount, LINK, Mono, Notice, PageBody } from '@/components/dashboard/ui';
import { findNetwork } from '@/lib/catalog';
import { enabledNetworks, takesOwnDepositKey } from '@/lib/chains';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import {
  DEFAULT_FEE_PAYER_PATH,
  checkFundsAgainstNode,
  depositKeyOf,
  feePayerOf,
  fundsReport,
  gapLimitOf,
  gasLeftReport,
  gasLeftSummary,
  listMoneyOutPlans,
  treasuryOf,
  type GapLimit,
} from '@/lib/payouts';
import { can } from '@/lib/users';
import { requirePage } from '../../session';
import { setDepositKeyAction, setFeePayerAction, setTreasuryAction } from './actions';
import { prepareCollectionAction } from './plan-actions';
import { PLAN_REFUSAL_COOKIE } from './plan-cookie';
import { StatusBadge } from '@/components/ui/badge';
import { CoinIcon, NetworkIcon } from '@/components/icons/coin-icon';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { CELL, DataTable, EmptyState } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Funds' };

/** What the treasury and deposit key forms did (set by their actions' redirects); anything else shows nothing. */
const NOTICE_PARAM = z.object({
  notice: z
    .enum([
      'treasury',
      'treasury-invalid',
      'confirm-refused',
      'code-refused',
      'owner-only',
      'deposit-key',
      'deposit-key-invalid',
      'plan-invalid',
      'plan-refused',
      'fee-payer',
      'fee-payer-invalid',
    ])
    .optional()
    .catch(undefined),
});
/** `?check=node`: the "Check against the node" button, a plain GET form (it changes nothing). */
const CHECK_PARAM = z.object({ check: z.enum(['node']).optional().catch(undefined) });

const NOTICES = {
  treasury: { tone: 'success', text: 'The treasury is saved: the next collection of that network goes there.' },
  'treasury-invalid': {
    tone: 'error',
    text: 'That is not an address of the network (check it and its checksum): nothing was changed.',
  },
  'confirm-refused': {
    tone: 'error',
    text: "The last six characters you typed are not the address's: nothing was changed.",
  },
  'code-refused': {
    tone: 'error',
    text: 'The code was refused (wrong, used already, or too many attempts): nothing was changed. Enter the current code of your authenticator app.',
  },
  'owner-only': { tone: 'error', text: 'Only an owner sets a treasury or a deposit key: nothing was changed.' },
  'deposit-key': {
    tone: 'success',
    text: 'Your deposit key is saved: new orders of that network pay addresses of your own key. Addresses handed out before stay watched.',
  },
  'deposit-key-invalid': {
    tone: 'error',
    text: 'That is not a usable descriptor of the network (with its key origin and checksum) or Solana wallet address (a public key, not used by another merchant): nothing was changed.',
  },
  'plan-invalid': {
    tone: 'error',
    text: 'The fee rate is a whole number of base units per vbyte (or empty for the node’s estimate): nothing was prepared.',
  },
  'plan-refused': { tone: 'error', text: 'The collection could not be prepared: nothing was changed.' },
  'fee-payer': {
    tone: 'success',
    text: 'The fee payer is saved: the next collection of that network that names none has its fees paid by it.',
  },
  'fee-payer-invalid': {
    tone: 'error',
    text: "That is not an address of the network (check it and its checksum) with a derivation path such as m/44'/60'/1'/0/0: nothing was changed.",
  },
} as const;

/** An owner's form's network choice: the networks a collection gathers. */
function NetworkField({ id, networks }: { id: string; networks: readonly { name: string; displayName: string }[] }) {
  return (
    <div>
      <Label htmlFor={id}>Network</Label>
      <Select id={id} name="network" required>
        {networks.map((network) => (
          <option key={network.name} value={network.name}>
            {network.displayName}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** The current authenticator code an owner's change asks for (a fresh second factor). */
function AuthenticatorCodeField({ id }: { id: string }) {
  return (
    <div>
      <Label htmlFor={id}>Authenticator code</Label>
      <Input id={id} name="code" required inputMode="numeric" autoComplete="one-time-code" maxLength={64} />
    </div>
  );
}

/** The gap limit a wallet importing the network's key would need; null for a network without one (a tag network). */
async function gapLimit(network: string, mode: 'live' | 'test', merchantId: string): Promise<GapLimit | null> {
  try {
    return await gapLimitOf(await getDatabase(), network, mode, merchantId);
  } catch (error) {
    if (isDomainErrorOf(error, 'CollectionRefused')) return null;
    throw error;
  }
}

/**
 * What the deposit addresses hold (docs/collections.md, "Funds"): per network and currency, from
 * what the watcher recorded in and out, the estimated fee to collect it all, the treasury it would
 * go to and the gap limit another wallet would need; "Prepare collection" per network for a user
 * with the `settings` permission (./plan-actions.ts), and the plans prepared, signed on the
 * merchant's machine.
 */
export default async function FundsPage({ searchParams }: { searchParams: Promise<Record<string, unknown>> }) {
  const session = await requirePage('view');
  const query = await searchParams;
  const { notice } = NOTICE_PARAM.parse(query);
  const { check } = CHECK_PARAM.parse(query);
  const db = await getDatabase();
  const funds = await fundsReport(db, session.merchantId, session.mode);
  // The gas fund-then-transfer collections left on EVM deposit addresses: a line of its own (docs/decisions/113).
  const gasLeft = await gasLeftReport(db, session.merchantId, session.mode);
  // The networks whose deposits a collection plan gathers: the Bitcoin family's.
  const collectable = enabledNetworks(session.mode).filter((network) => network.family === 'utxo');
  const treasuries = await Promise.all(
    collectable.map(async (network) => ({
      network,
      address: await treasuryOf(db, session.merchantId, network.name, session.mode),
    })),
  );
  // The networks a merchant's own key is set on: the Bitcoin family's descriptors, Solana's wallet, the XRP Ledger's account.
  const ownKeyNetworks = enabledNetworks(session.mode).filter(takesOwnDepositKey);
  const depositKeys = await Promise.all(
    ownKeyNetworks.map(async (network) => ({
      network,
      key: await depositKeyOf(db, session.merchantId, network.name, session.mode),
    })),
  );
  // The networks whose collection fees an account of the merchant's seed pays: EVM's gas payer, Tron's resource account.
  const feePayerNetworks = enabledNetworks(session.mode).filter((n) => n.family === 'evm' || n.family === 'tron');
  const feePayers = new Map(
    await Promise.all(
      feePayerNetworks.map(
        async (network) =>
          [network.name, await feePayerOf(db, session.merchantId, network.name, session.mode)] as const,
      ),
    ),
  );
  const gaps = await Promise.all(funds.map((line) => gapLimit(line.network, session.mode, session.merchantId)));
  const plans = await listMoneyOutPlans(db, session.merchantId, session.mode, {
    kind: 'collection',
    limit: 10,
    offset: 0,
  });
  // Why a prepare was refused, in lib/payouts' words (./plan-actions.ts), never from the URL.
  const refusal = notice === 'plan-refused' ? (await cookies()).get(PLAN_REFUSAL_COOKIE)?.value : undefined;
  const canCollect = can(session.role, 'settings');
  const checks = check === 'node' ? await checkFundsAgainstNode(db, session.merchantId, session.mode) : null;
  return (
    <PageBody
      title="Funds"
      description="What your deposit addresses hold, and what collecting it to your treasury would cost. The gateway never holds a key: you sign collections on your own machine."
    >
      {notice ? (
        <Notice tone={NOTICES[notice].tone}>{`${NOTICES[notice].text}${refusal ? ` ${refusal}.` : ''}`}</Notice>
      ) : null}
      {funds.length === 0 ? (
        <EmptyState>Your deposit addresses hold nothing the watcher has seen confirmed and unspent.</EmptyState>
      ) : (
        <DataTable
          caption="Funds per network and currency"
          head={['Network', 'Held', 'Addresses', 'Outputs', 'Cost to collect', 'Treasury', 'Gap limit needed']}
        >
          {funds.map((line, i) => {
            const gap = gaps[i] ?? null;
            return (
              <tr key={`${line.network}:${line.currency}`}>
                <td className={CELL}>
                  <span className="inline-flex items-center gap-2">
                    <NetworkIcon network={line.network} />
                    {line.network}
                  </span>
                </td>
                <td className={CELL} data-testid="funds-total">
                  <span className="inline-flex items-center gap-2">
                    <CoinIcon ticker={line.currency} size="sm" />
                    <Amount value={line.total} currency={line.currency} />
                  </span>
                </td>
                <td className={CELL}>{line.addresses}</td>
                <td className={CELL}>{line.outputs}</td>
                <td className={CELL}>
                  {line.costPerAddress !== null ? (
                    <>
                      {'at most '}
                      <Amount value={line.costPerAddress.amount} currency={line.costPerAddress.currency} />
                      {line.network !== 'tron'
                        ? ' per address at the current fee cap'
                        : line.currency === 'TRX'
                          ? ' per address at the node’s prices, its sweep’s bandwidth burned'
                          : ' per address at the node’s prices, energy and activation burned'}
                      {ROLLUPS.has(line.network) && ', plus the L1 data fee (docs/collections.md)'}
                    </>
                  ) : line.estimatedCost === null ? (
                    'no fee estimate'
                  ) : (
                    <>
                      <Amount value={line.estimatedCost} currency={line.currency} />
                      {` at ${line.feeRate} per vbyte`}
                    </>
                  )}
                </td>
                <td className={CELL}>{line.treasury === null ? 'not set' : <Mono>{line.treasury}</Mono>}</td>
                <td className={CELL}>
                  {gap === null ? '—' : gap.highestUsed === null ? 'none used yet' : `above ${gap.longestUnusedRun}`}
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {funds.length > 0 && (
        <form method="get" className="mt-3">
          <input type="hidden" name="check" value="node" />
          <Button type="submit" variant="secondary">
            Check against the node
          </Button>
        </form>
      )}
      {checks && (
        <ul className="mt-2 space-y-1 text-sm" data-testid="funds-check">
          {checks.map((line) => {
            // EVM and Tron addresses hold balances, compared per address (docs/decisions/122).
            const family = findNetwork(line.network)?.family;
            const byAddress = family === 'evm' || family === 'tron';
            return (
              <li key={`${line.network}:${line.currency}`}>
                {!line.checked
                  ? `${line.network} ${line.currency}: not checked (${line.reason})`
                  : line.differences.length === 0
                    ? byAddress
                      ? `${line.network} ${line.currency}: the node holds what the ${line.outputs} deposits recorded say`
                      : `${line.network} ${line.currency}: the node holds all ${line.outputs} outputs as recorded`
                    : byAddress
                      ? `${line.network} ${line.currency}: ${line.differences.length} addresses hold another balance at the node`
                      : `${line.network} ${line.currency}: ${line.differences.length} of ${line.outputs} outputs differ at the node`}
                {line.differences.length > 0 && (
                  <ul className="list-disc pl-5">
                    {line.differences.map((d) => (
                      <li key={`${d.txid ?? d.address}:${d.vout}`}>
                        <Mono>{d.txid === null ? d.address : `${d.txid}:${d.vout}`}</Mono>
                        {`${d.txid === null ? '' : ` (${d.address})`}: recorded ${d.recorded}, ${d.atNode === null ? 'spent or unknown at the node' : `${d.atNode} at the node`}`}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {gasLeft.length > 0 && (
        <section aria-labelledby="gas-left-title" className="mt-6">
          <h2 id="gas-left-title" className="text-lg font-semibold">
            Gas left on deposit addresses
          </h2>
          <ul className="mt-2 space-y-1 text-sm" data-testid="gas-left">
            {gasLeft.map((line) => (
              <li key={line.network}>
                {gasLeftSummary(line, findNetwork(line.network)?.currencies.find((c) => !c.contract)?.decimals ?? 18)}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="collections-title" className="mt-6">
        <h2 id="collections-title" className="text-lg font-semibold">
          Collections
        </h2>
        {canCollect && funds.length > 0 && (
          <ul className="mt-2 space-y-2">
            {funds.map((line) => (
              <li key={`${line.network}:${line.currency}`}>
                <form action={prepareCollectionAction} className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="network" value={line.network} />
                  {isAccountChain(line.network) && feePayers.get(line.network) ? (
                    <>
                      <input type="hidden" name="currency" value={line.currency} />
                      <p className="text-sm">
                        {`${line.network} ${line.currency}: fees paid by `}
                        <Mono>{feePayers.get(line.network)!.address}</Mono>
                        {' (Fee payers, below)'}
                      </p>
                    </>
                  ) : isAccountChain(line.network) ? (
                    <>
                      <input type="hidden" name="currency" value={line.currency} />
                      <Label>
                        {`${line.network} ${line.currency}: the account that pays the fees (your seed’s)`}
                        <Input name="feePayer" maxLength={42} autoComplete="off" spellCheck={false} />
                      </Label>
                      <Label>
                        {'its path'}
                        <Input
                          name="feePayerPath"
                          maxLength={64}
                          autoComplete="off"
                          spellCheck={false}
                          defaultValue={defaultFeePayerPath(line.network)}
                        />
                      </Label>
                    </>
                  ) : (
                    <Label>
                      {`${line.network}: fee rate per vbyte (empty: the node’s estimate)`}
                      <Input name="feeRate" inputMode="numeric" maxLength={10} autoComplete="off" />
                    </Label>
                  )}
                  <Button type="submit" variant="primary">
                    {isAccountChain(line.network)
                      ? `Prepare collection of ${line.network} ${line.currency}`
                      : `Prepare collection of ${line.network}`}
                  </Button>
                </form>
              </li>
            ))}
          </ul>
        )}
        {plans.length === 0 ? (
          <p className="mt-2 text-sm">No collection prepared yet.</p>
        ) : (
          <ul className="mt-3 space-y-1 text-sm" data-testid="plans">
            {plans.map((plan) => (
              <li key={plan.planId}>
                <Link href={`/dashboard/funds/plans/${plan.planId}`} className={LINK}>
                  {`${plan.network}: ${plan.inputs} outputs, ${plan.total} ${plan.currency}`}
                </Link>{' '}
                <StatusBadge status={plan.status} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {feePayerNetworks.length > 0 && (
        <section aria-labelledby="fee-payers-title" className="mt-6">
          <h2 id="fee-payers-title" className="text-lg font-semibold">
            Fee payers
          </h2>
          <ul className="mt-2 text-sm">
            {feePayerNetworks.map((network) => {
              const payer = feePayers.get(network.name);
              return (
                <li key={network.name} data-testid="fee-payer">
                  {`${network.displayName}: `}
                  {payer ? (
                    <>
                      <Mono>{payer.address}</Mono>
                      {` (${payer.path})`}
                    </>
                  ) : (
                    'not set: each collection names its own'
                  )}
                </li>
              );
            })}
          </ul>
          {canCollect ? (
            <form action={setFeePayerAction} className="mt-3 max-w-xl space-y-3">
              <p className="text-sm">
                The account of your seed that pays a network&apos;s collection fees: on EVM the gas payer, on Tron the
                account holding your staked TRX. Its address and path only: your signer derives and checks it, and never
                paste a private key.
              </p>
              <NetworkField id="fee-payer-network" networks={feePayerNetworks} />
              <div>
                <Label htmlFor="fee-payer-address">Address</Label>
                <Input
                  id="fee-payer-address"
                  name="address"
                  required
                  maxLength={64}
                  autoComplete="off"
                  spellCheck={false}
                  className="w-full"
                />
              </div>
              <div>
                <Label htmlFor="fee-payer-path">{`Path (EVM ${DEFAULT_FEE_PAYER_PATH.evm}, Tron ${DEFAULT_FEE_PAYER_PATH.tron} by default)`}</Label>
                <Input
                  id="fee-payer-path"
                  name="path"
                  required
                  maxLength={120}
                  autoComplete="off"
                  spellCheck={false}
                  defaultValue={DEFAULT_FEE_PAYER_PATH[feePayerNetworks[0]!.family === 'tron' ? 'tron' : 'evm']}
                />
              </div>
              <Button type="submit" variant="primary">
                Set fee payer
              </Button>
            </form>
          ) : (
            <p className="mt-2 text-sm">Only an owner or an admin sets a fee payer.</p>
          )}
        </section>
      )}
      <section aria-labelledby="treasury-title" className="mt-6">
        <h2 id="treasury-title" className="text-lg font-semibold">
          Treasuries
        </h2>
        <ul className="mt-2 text-sm">
          {treasuries.map(({ network, address }) => (
            <li key={network.name} data-testid="treasury">
              {`${network.displayName}: `}
              {address === null ? 'not set' : <Mono>{address}</Mono>}
            </li>
          ))}
        </ul>
        {session.role === 'owner' ? (
          <form action={setTreasuryAction} className="mt-3 max-w-xl space-y-3">
            <p className="text-sm">
              Where a network&apos;s collections go. Your signer pins its own copy: set the same address there.
            </p>
            <NetworkField id="treasury-network" networks={collectable} />
            <div>
              <Label htmlFor="treasury-address">Treasury address</Label>
              <Input id="treasury-address" name="address" required maxLength={128} className="w-full" />
            </div>
            <div>
              <Label htmlFor="treasury-confirm">Its last six characters, typed again</Label>
              <Input id="treasury-confirm" name="confirm" required minLength={6} maxLength={6} />
            </div>
            <AuthenticatorCodeField id="treasury-code" />
            <Button type="submit" variant="primary">
              Set treasury
            </Button>
          </form>
        ) : (
          <p className="mt-2 text-sm">Only an owner sets a treasury.</p>
        )}
      </section>
      <section aria-labelledby="deposit-keys-title" className="mt-6">
        <h2 id="deposit-keys-title" className="text-lg font-semibold">
          Deposit keys
        </h2>
        <ul className="mt-2 text-sm">
          {depositKeys.map(({ network, key }) => (
            <li key={network.name} data-testid="deposit-key">
              {`${network.displayName}: `}
              {key === null ? "the gateway's key" : <Mono>{key}</Mono>}
            </li>
          ))}
        </ul>
        {session.role === 'owner' ? (
          <form action={setDepositKeyAction} className="mt-3 max-w-xl space-y-3">
            <p className="text-sm">
              Your own extended public key with its origin, as your wallet exports it, on Solana your receiving
              wallet&apos;s address, or on the XRP Ledger your receiving account&apos;s classic r... address: your
              deposits then belong to your seed alone. Never paste a private key, seed or recovery phrase.
            </p>
            <NetworkField id="deposit-key-network" networks={ownKeyNetworks} />
            <div>
              <Label htmlFor="deposit-key-key">
                Descriptor, e.g. wpkh([d34db33f/84h/2h/0h]xpub…/0/*), a Solana wallet or an XRP Ledger account
              </Label>
              <Input
                id="deposit-key-key"
                name="key"
                required
                maxLength={400}
                autoComplete="off"
                spellCheck={false}
                className="w-full"
              />
            </div>
            <AuthenticatorCodeField id="deposit-key-code" />
            <Button type="submit" variant="primary">
              Set deposit key
            </Button>
          </form>
        ) : (
          <p className="mt-2 text-sm">Only an owner sets a deposit key.</p>
        )}
      </section>
      <p className="mt-4 text-sm">
        A prepared collection is signed with <code>npm run signer</code> on your own machine (the gateway&apos;s{' '}
        <code>docs/collections.md</code>); <code>npm run collect -- prepare</code> and the API&apos;s{' '}
        <code>collections/prepare</code> prepare the same plans, and <code>funds/list</code> answers these lines.
      </p>
    </PageBody>
  );
}

/** Rollups whose fee adds an L1 data fee to the execution gas (docs/collections.md, "What an EVM collection costs"). */
const ROLLUPS: ReadonlySet<string> = new Set(['arbitrum', 'base']);

/** The path a network's fee payer takes unless the merchant says otherwise. */
function defaultFeePayerPath(network: string): string {
  return DEFAULT_FEE_PAYER_PATH[findNetwork(network)?.family === 'tron' ? 'tron' : 'evm'];
}

/** EVM and Tron: plans per currency, their fees paid by an account of the merchant's seed (docs/decisions/093). */
function isAccountChain(network: string): boolean {
  const family = findNetwork(network)?.family;
  return family === 'evm' || family === 'tron';
}
