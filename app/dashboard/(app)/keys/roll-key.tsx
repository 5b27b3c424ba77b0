'use client';
/**
 * "Roll…" on one key: a new private key with the same name and scope, while the old one keeps
 * working for the overlap chosen (docs/decisions/048). The new key is shown once from the
 * action's answer.
 */
import { useActionState } from 'react';
import { ALERT, INPUT, LABEL, SECONDARY_BUTTON } from '@/app/dashboard/form-styles';
import type { RollKeyState } from './actions';
import { IssuedKey } from './issued-key';

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function RollKey({
  keyId,
  rolled,
  overlap,
  action,
}: {
  keyId: string;
  /** Rolled already (it has a successor): no second roll; the answer of the roll just made stays shown. */
  rolled: boolean;
  overlap: { min: number; max: number; default: number };
  action: (state: RollKeyState, form: FormData) => Promise<RollKeyState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  if (rolled && !state) return null;
  return (
    <details className="group" open={state !== null || undefined}>
      <summary className="cursor-pointer rounded-md border border-slate-400 px-2.5 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 dark:border-slate-500">
        Roll…
      </summary>
      {!rolled && (
        <form action={formAction} className="mt-2 w-72 rounded-md border border-slate-300 p-3 dark:border-slate-700">
          <input type="hidden" name="keyId" value={keyId} />
          <p className="text-sm">
            Makes a new private key with the same name and scope. During the overlap both keys sign requests, and the
            webhooks of this key&apos;s orders and invoices stay signed with it; when it ends, this key is refused and
            those webhooks are signed with the new one. Move your integration and your webhook receiver to the new key
            before then.
          </p>
          <label className={`${LABEL} mt-2`}>
            {`Overlap (hours, ${overlap.min} to ${overlap.max})`}
            <input
              name="overlapHours"
              type="number"
              min={overlap.min}
              max={overlap.max}
              defaultValue={overlap.default}
              required
              className={INPUT}
            />
          </label>
          <button type="submit" disabled={pending} className={`${SECONDARY_BUTTON} mt-2 text-sm disabled:opacity-60`}>
            Confirm roll
          </button>
        </form>
      )}
      {state?.ok === false && (
        <p role="alert" className={`mt-2 text-sm ${ALERT}`}>
          {state.error}
        </p>
      )}
      {state?.ok && (
        <IssuedKey
          title={`Rolled: new ${state.mode} key`}
          mode={state.mode}
          publicKey={state.publicKey}
          privateKey={state.privateKey}
        >
          <p className="mt-1 text-sm" data-testid="old-key-expires">
            {`The old key works until ${when(state.oldKeyExpiresAt)}.`}
          </p>
        </IssuedKey>
      )}
    </details>
  );
}
