'use client';
/**
 * A settings form posting a server action, with the action's answer (saved, or why not) shown
 * under it and announced. The fields are the server-rendered children. Works without JavaScript.
 */
import { useActionState, type ReactNode } from 'react';
import { ALERT, BUTTON, NOTICE } from '@/app/dashboard/form-styles';
import type { SettingsState } from './actions';

export function ActionForm({
  action,
  submit,
  children,
}: {
  action: (state: SettingsState, form: FormData) => Promise<SettingsState>;
  submit: string;
  children: ReactNode;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    // React posts a form with a file as multipart/form-data by itself (also without JavaScript).
    <form action={formAction} className="mt-3 space-y-4">
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={`${BUTTON} disabled:opacity-60`}>
          {submit}
        </button>
        {state && (
          <p role={state.ok ? 'status' : 'alert'} className={`text-sm ${state.ok ? NOTICE : ALERT}`}>
            {state.message}
          </p>
        )}
      </div>
    </form>
  );
}
