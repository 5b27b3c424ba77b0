'use client';
import { useActionState } from 'react';
import { ALERT, BUTTON, INPUT, LABEL } from '../form-styles';
import { signInAction, type FormState } from './actions';

/**
 * The e-mail and password form; a refusal (wrong password, too many attempts) shows above it.
 * While the account's budget for unknown devices is spent, it also offers a two-factor code: a
 * right one signs in at once (docs/decisions/049).
 */
export function SignInForm({ next }: { next?: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(signInAction, {});
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.message && (
        <p role="alert" className={ALERT} data-testid="sign-in-error">
          {state.message}
        </p>
      )}
      {next && <input type="hidden" name="next" value={next} />}
      <div>
        <label htmlFor="email" className={LABEL}>
          E-mail address
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required className={INPUT} />
      </div>
      <div>
        <label htmlFor="password" className={LABEL}>
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={INPUT}
        />
      </div>
      {state.askCode && (
        <div>
          <label htmlFor="code" className={LABEL}>
            Two-factor code, if you use it
          </label>
          <input id="code" name="code" autoComplete="one-time-code" maxLength={32} className={INPUT} />
        </div>
      )}
      <button type="submit" disabled={pending} className={`${BUTTON} w-full`}>
        Sign in
      </button>
    </form>
  );
}
