import type { Metadata } from 'next';
import { PageBody } from '@/components/dashboard/ui';
import { z } from 'zod';
import { requirePage } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import {
  KEY_NAME_MAX,
  listKeys,
  REVOKED_KEY_SIGNING_HOURS,
  ROLL_OVERLAP_HOURS,
  type KeyListing,
} from '@/lib/merchants';
import { BASE_KEY_SCOPES, KEY_SCOPES, MONEY_OUT_SCOPES, type KeyScope } from '@/lib/protocol';
import { ALERT, NOTICE } from '@/app/dashboard/form-styles';
import { createKeyAction, moneyOutScopesAction, revokeKeyAction, rollKeyAction, webhookKeyAction } from './actions';
import { CreateKey } from './create-key';
import { RollKey } from './roll-key';
import { Button } from '@/components/ui/button';
import { CELL, DataTable } from '@/components/ui/table';
import { Dialog } from '@/components/ui/dialog';
import { Label } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';

export const metadata: Metadata = { title: 'API keys' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** What the last change did (set by the actions' redirects); anything else shows nothing. */
const NOTICE_PARAM = z.object({
  notice: z
    .enum(['revoked', 'webhook-key', 'scopes', 'not-found', 'bad-handover', 'owner-only', 'code-refused'])
    .optional()
    .catch(undefined),
});

const NOTICES = {
  revoked: { text: 'The key is revoked: requests signed with it are refused from now on.', tone: NOTICE },
  'webhook-key': {
    text: 'Webhook key changed: webhooks of objects no API key made are signed with it from now on.',
    tone: NOTICE,
  },
  scopes: { text: "The key's money-out scopes are saved: they apply from its next request.", tone: NOTICE },
  'not-found': { text: 'No such active key: nothing was changed.', tone: ALERT },
  'owner-only': { text: 'Only an owner changes money-out scopes: nothing was changed.', tone: ALERT },
  'code-refused': {
    text: 'The code was refused (wrong, used already, or too many attempts): nothing was changed. Enter the current code of your authenticator app.',
    tone: ALERT,
  },
  'bad-handover': {
    text: `Nothing was revoked: move the webhooks to another active key of this mode, or keep signing for ${REVOKED_KEY_SIGNING_HOURS.min} to ${REVOKED_KEY_SIGNING_HOURS.max} hours.`,
    tone: ALERT,
  },
};

const when = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const scopeLabel = (scopes: readonly KeyScope[]) => scopes.map((scope) => KEY_SCOPES[scope].label).join(', ');
const active = (key: KeyListing, now: Date) => !key.revokedAt && (!key.expiresAt || key.expiresAt > now);

/** A key's state as a sentence: active (until its expiry), expired, or revoked (and who signs its webhooks). */
function status(key: KeyListing, now: Date): string {
  if (key.revokedAt) {
    const signing =
      key.signsWebhooksUntil && key.signsWebhooksUntil > now
        ? `; signs its webhooks until ${when(key.signsWebhooksUntil)}`
        : key.successor
          ? `; its webhooks are signed with ${key.successor}`
          : '';
    return `Revoked ${when(key.revokedAt)}${signing}`;
  }
  if (key.expiresAt && key.expiresAt <= now) return `Expired ${when(key.expiresAt)}`;
  if (key.expiresAt)
    return key.successor ? `Rolled: works until ${when(key.expiresAt)}` : `Active until ${when(key.expiresAt)}`;
  return 'Active';
}

/**
 * The merchant's API keys of the session's mode (the test/live switch): public parts only. A new
 * key's private key is shown by the create and roll forms from the action's answer, never from
 * this page. What each action changes is said beside it (docs/decisions/048).
 */
export default async function KeysPage({ searchParams }: Props) {
  const session = await requirePage('keys');
  const { notice } = NOTICE_PARAM.parse(await searchParams);
  const keys = await listKeys(await getDatabase(), session.merchantId, session.mode);
  const now = new Date();
  const activeKeys = keys.filter((key) => active(key, now));
  return (
    <PageBody title="API keys">
      <p className="mt-1 text-sm text-muted">
        {`Your ${session.mode} keys. Requests to the merchant API are signed with a key's private key; a ${session.mode === 'test' ? 'test key works against the sandbox only' : 'live key moves real money'}.`}
      </p>
      <p className="mt-1 text-sm text-muted">
        Creating a key changes nothing for integrations that already work: the webhooks of an order or invoice are
        signed with the key that made it. The webhook key signs the webhooks of everything no API key made (payment
        links, point of sale, deposits without an order, refunds, collections).
      </p>
      {notice && (
        <p
          role={NOTICES[notice].tone === NOTICE ? 'status' : 'alert'}
          className={`mt-4 text-sm ${NOTICES[notice].tone}`}
        >
          {NOTICES[notice].text}
        </p>
      )}
      <CreateKey
        mode={session.mode}
        nameMax={KEY_NAME_MAX}
        scopes={BASE_KEY_SCOPES.map((scope) => ({ value: scope, ...KEY_SCOPES[scope] }))}
        action={createKeyAction}
      />
      <h2 className="mt-8 text-lg font-semibold">{`${session.mode === 'test' ? 'Test' : 'Live'} keys`}</h2>
      {keys.length === 0 ? (
        <p className="mt-2 text-sm">{`No ${session.mode} key yet.`}</p>
      ) : (
        <div className="mt-2">
          <DataTable
            caption={`${session.mode === 'test' ? 'Test' : 'Live'} keys`}
            head={['Key', 'Scope', 'Created', 'Last used', 'Status', { title: 'Actions', hidden: true }]}
            minWidth="min-w-[48rem]"
          >
            {keys.map((key) => (
              <tr key={key.keyId} data-testid="key-row" data-public-key={key.publicKey}>
                <td className={CELL}>
                  {key.name && <div className="font-medium">{key.name}</div>}
                  <div className="font-mono break-all">{key.publicKey}</div>
                  {key.webhookKey && <div className="mt-1 text-xs font-semibold text-good-text">Webhook key</div>}
                </td>
                <td className={CELL}>{scopeLabel(key.scopes)}</td>
                <td className={`${CELL} whitespace-nowrap`}>
                  {when(key.createdAt)}
                  {key.createdBy && <div className="text-xs">{`by ${key.createdBy}`}</div>}
                </td>
                <td className={`${CELL} whitespace-nowrap`}>
                  {key.lastUsedAt ? when(key.lastUsedAt) : 'Never'}
                  {key.lastUsedIp && <div className="text-xs">{`from ${key.lastUsedIp}`}</div>}
                </td>
                <td className={CELL} data-testid="key-status">
                  {status(key, now)}
                </td>
                <td className={`${CELL} space-y-2`}>
                  {active(key, now) && (
                    <>
                      {!key.webhookKey && (
                        <form action={webhookKeyAction}>
                          <input type="hidden" name="keyId" value={key.keyId} />
                          <Button type="submit" variant="secondary">
                            Make webhook key
                          </Button>
                        </form>
                      )}
                      <RollKey
                        keyId={key.keyId}
                        rolled={key.successor !== null}
                        overlap={ROLL_OVERLAP_HOURS}
                        action={rollKeyAction}
                      />
                      {session.role === 'owner' && <MoneyOutScopes listed={key} twoFactor={session.twoFactorEnabled} />}
                      <RevokeKey listed={key} others={activeKeys.filter((other) => other.keyId !== key.keyId)} />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
    </PageBody>
  );
}

/**
 * Revoke in two steps without script: "Revoke…" opens the confirmation, whose form posts. A key
 * whose objects still wait on its signature (or the webhook key) asks what becomes of their
 * webhooks: moved to another key now, or signed with the revoked key for some hours.
 */
function RevokeKey({ listed, others }: { listed: KeyListing; others: KeyListing[] }) {
  const { orders, invoices, webhooks } = listed.open;
  const handsOver = orders + invoices + webhooks > 0 || listed.webhookKey;
  return (
    <Dialog trigger="Revoke…" title="Revoke this key" triggerVariant="danger">
      <form action={revokeKeyAction} className="mt-2">
        <input type="hidden" name="keyId" value={listed.keyId} />
        <p className="text-sm">
          Revoke <code className="font-mono break-all">{listed.publicKey}</code>? Requests signed with it are refused at
          once. This cannot be undone.
        </p>
        {handsOver ? (
          <fieldset className="mt-2 space-y-2 text-sm">
            <legend className="font-medium">
              {`${orders} open orders, ${invoices} open invoices and ${webhooks} webhooks to deliver are signed with it${listed.webhookKey ? ', and it is the webhook key' : ''}. Their webhooks:`}
            </legend>
            {others.length > 0 && (
              <label className="flex flex-wrap items-center gap-2">
                <input type="radio" name="handover" value="move" defaultChecked />
                Move to
                <Select name="moveTo" aria-label="Key to move the webhooks to" className="w-full">
                  {others.map((other) => (
                    <option key={other.keyId} value={other.keyId}>
                      {`${other.name || 'Unnamed key'} (${other.publicKey})`}
                    </option>
                  ))}
                </Select>
                <span className="text-xs">now: your webhook receivers must verify with that key from now on.</span>
              </label>
            )}
            <label className="flex flex-wrap items-center gap-2">
              <input type="radio" name="handover" value="keep" defaultChecked={others.length === 0} />
              Keep signing them with this key for
              <Input
                name="keepHours"
                type="number"
                aria-label="Hours this key keeps signing webhooks"
                min={REVOKED_KEY_SIGNING_HOURS.min}
                max={REVOKED_KEY_SIGNING_HOURS.max}
                defaultValue={24}
                className="w-20"
              />
              hours
            </label>
          </fieldset>
        ) : (
          <input type="hidden" name="handover" value="none" />
        )}
        <Button type="submit" variant="danger" className="mt-2">
          Confirm revoke
        </Button>
      </form>
    </Dialog>
  );
}

/**
 * "Money-out scopes…" (owners only): which of the money-out scopes the key has, saved only with a
 * current authenticator code. Without two-factor the page says how to get there.
 */
function MoneyOutScopes({ listed, twoFactor }: { listed: KeyListing; twoFactor: boolean }) {
  return (
    <Dialog trigger="Money-out scopes…" title="Money-out scopes">
      <div className="mt-2">
        <p>
          Lets this key take part in moving money out. No key has these unless an owner grants them, with a current code
          of their authenticator app.
        </p>
        {twoFactor ? (
          <form action={moneyOutScopesAction} className="mt-2 space-y-2">
            <input type="hidden" name="keyId" value={listed.keyId} />
            {MONEY_OUT_SCOPES.map((scope) => (
              <label key={scope} className="flex items-start gap-2">
                <input
                  type="checkbox"
                  name="moneyOut"
                  value={scope}
                  defaultChecked={listed.scopes.includes(scope)}
                  className="mt-1 h-4 w-4"
                />
                <span>
                  <span className="font-medium">{KEY_SCOPES[scope].label}</span>
                  {`: ${KEY_SCOPES[scope].description}`}
                </span>
              </label>
            ))}
            <Label>
              Authenticator code
              <Input name="code" autoComplete="one-time-code" inputMode="numeric" required />
            </Label>
            <Button type="submit" variant="secondary">
              Save money-out scopes
            </Button>
          </form>
        ) : (
          <p className="mt-2 font-medium">Turn on two-factor on your account page to grant them.</p>
        )}
      </div>
    </Dialog>
  );
}
