'use client';
/**
 * A settings form posting a server action, with the action's answer (saved, or why not) shown
 * under it and announced. The fields are the server-rendered children. Works without JavaScript.
 */
import { useActionState, type ReactNode } from 'react';
import type { SettingsState } from './actions';

export function ActionForm({
  action,
  submit,
  children,
  multipart = false,
}: {
  action: (state: SettingsState, form: FormData) => Promise<SettingsState>;
  submit: string;
  children: ReactNode;
  multipart?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} encType={multipart ? 'multipart/form-data' : undefined} className="mt-3 space-y-4">
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-slate-900 px-4 py-2 font-medium text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 disabled:opacity-60 dark:bg-slate-100 dark:text-slate-900"
        >
          {submit}
        </button>
        <p
          role={state && !state.ok ? 'alert' : 'status'}
          className={`text-sm ${state?.ok === false ? 'font-medium text-red-800 dark:text-red-200' : 'text-green-800 dark:text-green-200'}`}
        >
          {state?.message ?? ''}
        </p>
      </div>
    </form>
  );
}
