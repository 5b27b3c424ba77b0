'use client';
/**
 * "Create key": a name, a scope and an optional expiry; posts the server action and shows the new
 * private key from the action's answer, once. Works without JavaScript too (the form posts, and
 * the answer renders the same way).
 */
import { useActionState } from 'react';
import { ALERT } from '@/app/dashboard/form-styles';
import type { CreateKeyState } from './actions';
import { IssuedKey } from './issued-key';
import type { Mode } from '@/lib/protocol';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';

export interface ScopeChoice {
  value: string;
  label: string;
  description: string;
}

export function CreateKey({
  mode,
  scopes,
  nameMax,
  action,
}: {
  mode: Mode;
  /** The scopes the page offers (never a money-out one). */
  scopes: readonly ScopeChoice[];
  nameMax: number;
  action: (state: CreateKeyState, form: FormData) => Promise<CreateKeyState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <div className="mt-4">
      <form action={formAction} className="grid gap-3 sm:grid-cols-3 sm:items-end">
        <input type="hidden" name="mode" value={mode} />
        <Label>
          Name
          <Input name="name" maxLength={nameMax} placeholder="e.g. Shop checkout" />
        </Label>
        <Label>
          Scope
          <Select name="scope" defaultValue="full">
            {scopes.map((scope) => (
              <option key={scope.value} value={scope.value} title={scope.description}>
                {scope.label}
              </option>
            ))}
          </Select>
        </Label>
        <Label>
          Expires after (days, optional)
          <Input name="expiresInDays" type="number" min={1} max={3650} inputMode="numeric" />
        </Label>
        <div className="sm:col-span-3">
          <Button type="submit" disabled={pending} variant="primary">
            {`Create ${mode} key`}
          </Button>
        </div>
      </form>
      {state?.ok === false && (
        <p role="alert" className={`mt-3 text-sm ${ALERT}`}>
          {state.error}
        </p>
      )}
      {state?.ok && (
        <IssuedKey
          title={`New ${state.mode} key created`}
          mode={state.mode}
          publicKey={state.publicKey}
          privateKey={state.privateKey}
        />
      )}
    </div>
  );
}
