'use client';
/**
 * "Roll…" on one key: a new private key with the same name and scope, while the old one keeps
 * working for the overlap chosen (docs/decisions/048). The new key is shown once from the
 * action's answer.
 */
import { useActionState } from 'react';
import { ALERT } from '@/app/dashboard/form-styles';
import type { RollKeyState } from './actions';
import { IssuedKey } from './issued-key';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

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
    <Dialog trigger="Roll…" title="Roll this key" open={state !== null} closeOnSubmit={false}>
      {!rolled && (
        <form action={formAction} className="mt-2">
          <input type="hidden" name="keyId" value={keyId} />
          <p className="text-sm">
            Makes a new private key with the same name and scope. During the overlap both keys sign requests, and the
            webhooks of this key&apos;s orders and invoices stay signed with it; when it ends, this key is refused and
            those webhooks are signed with the new one. Move your integration and your webhook receiver to the new key
            before then.
          </p>
          <Label className="mt-2">
            {`Overlap (hours, ${overlap.min} to ${overlap.max})`}
            <Input
              name="overlapHours"
              type="number"
              min={overlap.min}
              max={overlap.max}
              defaultValue={overlap.default}
              required
            />
          </Label>
          <Button type="submit" disabled={pending} variant="secondary" className="mt-2">
            Confirm roll
          </Button>
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
    </Dialog>
  );
}
