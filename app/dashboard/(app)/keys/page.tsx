import type { Metadata } from 'next';
import { z } from 'zod';
import { requirePage } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { listKeys } from '@/lib/merchants';
import { ALERT, DANGER_BUTTON, NOTICE } from '@/app/dashboard/form-styles';
import { createKeyAction, revokeKeyAction } from './actions';
import { CreateKey } from './create-key';

export const metadata: Metadata = { title: 'API keys' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** What the last revocation did (set by revokeKeyAction's redirect); anything else shows nothing. */
const NOTICE_PARAM = z.object({ notice: z.enum(['revoked', 'not-found']).optional().catch(undefined) });

const NOTICES = {
  revoked: { text: 'The key is revoked: requests signed with it are refused from now on.', tone: NOTICE },
  'not-found': { text: 'No such active key: nothing was revoked.', tone: ALERT },
};

const when = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The merchant's API keys of the session's mode (the test/live switch): public keys only. A new
 * key's private key is shown by the create form from the action's answer, never from this page.
 */
export default async function KeysPage({ searchParams }: Props) {
  const session = await requirePage('keys');
  const { notice } = NOTICE_PARAM.parse(await searchParams);
  const keys = await listKeys(await getDatabase(), session.merchantId, session.mode);
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6">
      <h1 className="text-2xl font-semibold">API keys</h1>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {`Your ${session.mode} keys. Requests to the merchant API are signed with a key's private key; a ${session.mode === 'test' ? 'test key works against the sandbox only' : 'live key moves real money'}.`}
      </p>
      {notice && (
        <p role={notice === 'revoked' ? 'status' : 'alert'} className={`mt-4 text-sm ${NOTICES[notice].tone}`}>
          {NOTICES[notice].text}
        </p>
      )}
      <CreateKey mode={session.mode} action={createKeyAction} />
      <h2 className="mt-8 text-lg font-semibold">{`${session.mode === 'test' ? 'Test' : 'Live'} keys`}</h2>
      {keys.length === 0 ? (
        <p className="mt-2 text-sm">{`No ${session.mode} key yet.`}</p>
      ) : (
        <div className="mt-2 overflow-x-auto rounded-lg border border-slate-300 dark:border-slate-700">
          <table className="w-full min-w-[36rem] text-start text-sm">
            <thead className="bg-slate-100 dark:bg-slate-800">
              <tr>
                <th scope="col" className="px-3 py-2 text-start font-semibold">
                  Public key
                </th>
                <th scope="col" className="px-3 py-2 text-start font-semibold">
                  Created
                </th>
                <th scope="col" className="px-3 py-2 text-start font-semibold">
                  Status
                </th>
                <th scope="col" className="px-3 py-2 text-start font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr
                  key={key.keyId}
                  data-testid="key-row"
                  data-public-key={key.publicKey}
                  className="border-t border-slate-300 align-top dark:border-slate-700"
                >
                  <td className="px-3 py-2 font-mono break-all">{key.publicKey}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{when(key.createdAt)}</td>
                  <td className="px-3 py-2">{key.revokedAt ? `Revoked ${when(key.revokedAt)}` : 'Active'}</td>
                  <td className="px-3 py-2">
                    {!key.revokedAt && <RevokeKey keyId={key.keyId} publicKey={key.publicKey} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** Revoke in two steps without script: "Revoke…" opens the confirmation, whose form posts. */
function RevokeKey({ keyId, publicKey }: { keyId: string; publicKey: string }) {
  return (
    <details className="group">
      <summary className="cursor-pointer rounded-md border border-red-700 px-2.5 py-1 text-sm font-medium text-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 dark:border-red-400 dark:text-red-200">
        Revoke…
      </summary>
      <form action={revokeKeyAction} className="mt-2 w-64 rounded-md border border-slate-300 p-3 dark:border-slate-700">
        <input type="hidden" name="keyId" value={keyId} />
        <p className="text-sm">
          Revoke <code className="font-mono break-all">{publicKey}</code>? Requests signed with it are refused at once.
          This cannot be undone.
        </p>
        <button type="submit" className={`${DANGER_BUTTON} mt-2 text-sm`}>
          Confirm revoke
        </button>
      </form>
    </details>
  );
}
