'use client';
import { useActionState } from 'react';
import { ALERT } from '../form-styles';
import { signInAction, type FormState } from './actions';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

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
      <Field label="E-mail address">
        <Input id="email" name="email" type="email" autoComplete="username" required />
      </Field>
      <Field label="Password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      {state.askCode && (
        <Field label="Two-factor code, if you use it">
          <Input id="code" name="code" autoComplete="one-time-code" maxLength={32} />
        </Field>
      )}
      <Button type="submit" disabled={pending} variant="primary" className="w-full">
        Sign in
      </Button>
    </form>
  );
}
