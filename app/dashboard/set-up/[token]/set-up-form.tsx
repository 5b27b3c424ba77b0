'use client';
import { useActionState } from 'react';
import { ALERT } from '../../form-styles';
import { setUpAction, type FormState } from './actions';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

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
      <Field
        label="New password"
        hint={`At least ${minLength} characters; not a common password, nor your e-mail address.`}
      >
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
        />
      </Field>
      <Field label="Repeat the password">
        <Input id="confirm" name="confirm" type="password" autoComplete="new-password" required />
      </Field>
      <Button type="submit" disabled={pending} variant="primary" className="w-full">
        Set password and sign in
      </Button>
    </form>
  );
}
