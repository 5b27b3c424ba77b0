'use client';
import { useActionState } from 'react';
import { ALERT, BUTTON, INPUT, LABEL } from '../../form-styles';
import { setUpAction, type FormState } from './actions';

export function SetUpForm({ token, email, minLength }: { token: string; email: string; minLength: number }) {
  const [state, action, pending] = useActionState<FormState, FormData>(setUpAction, {});
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.message && (
        <p role="alert" className={ALERT} data-testid="set-up-error">
          {state.message}
        </p>
      )}
      <input type="hidden" name="token" value={token} />
      {/* For password managers: the account the new password belongs to. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <div>
        <label htmlFor="password" className={LABEL}>
          New password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          aria-describedby="password-rule"
          className={INPUT}
        />
        <p id="password-rule" className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          At least {minLength} characters; not a common password, nor your e-mail address.
        </p>
      </div>
      <div>
        <label htmlFor="confirm" className={LABEL}>
          Repeat the password
        </label>
        <input id="confirm" name="confirm" type="password" autoComplete="new-password" required className={INPUT} />
      </div>
      <button type="submit" disabled={pending} className={`${BUTTON} w-full`}>
        Set password and sign in
      </button>
    </form>
  );
}
