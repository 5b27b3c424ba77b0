'use client';
/**
 * "Create key": posts the server action and shows the new private key from the action's answer,
 * once, with a copy button. Nothing else holds it: a reload shows the list only. Works without
 * JavaScript too (the form posts, and the answer renders the same way).
 */
import { useActionState } from 'react';
import { CopyButton } from '@/components/pay/copy-button';
import { ALERT, BUTTON } from '@/app/dashboard/form-styles';
import type { CreateKeyState } from './actions';
import type { Mode } from '@/lib/protocol';

export function CreateKey({
  mode,
  action,
}: {
  mode: Mode;
  action: (state: CreateKeyState, form: FormData) => Promise<CreateKeyState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <div className="mt-4">
      <form action={formAction}>
        <input type="hidden" name="mode" value={mode} />
        <button type="submit" disabled={pending} className={`${BUTTON} disabled:opacity-60`}>
          {`Create ${mode} key`}
        </button>
      </form>
      {state?.ok === false && (
        <p role="alert" className={`mt-3 text-sm ${ALERT}`}>
          {state.error}
        </p>
      )}
      {state?.ok && (
        <section
          aria-labelledby="new-key-title"
          data-testid="new-key"
          className="mt-4 rounded-lg border-2 border-amber-600 bg-amber-50 p-4 dark:border-amber-400 dark:bg-amber-950"
        >
          <h2 id="new-key-title" className="font-semibold">
            {`New ${state.mode} key created`}
          </h2>
          <p role="status" className="mt-1 text-sm font-medium">
            Copy the private key now: it is stored encrypted and is not shown again.
          </p>
          <dl className="mt-3 space-y-3 text-sm">
            <div>
              <dt className="font-medium">Public key</dt>
              <dd className="mt-1 flex items-start justify-between gap-2">
                <code data-testid="new-public-key" className="min-w-0 break-all font-mono">
                  {state.publicKey}
                </code>
                <CopyButton value={state.publicKey} label="Copy the public key" text="Copy" done="Copied" />
              </dd>
            </div>
            <div>
              <dt className="font-medium">Private key</dt>
              <dd className="mt-1 flex items-start justify-between gap-2">
                <code data-testid="new-private-key" className="min-w-0 break-all font-mono">
                  {state.privateKey}
                </code>
                <CopyButton value={state.privateKey} label="Copy the private key" text="Copy" done="Copied" />
              </dd>
            </div>
          </dl>
        </section>
      )}
    </div>
  );
}
