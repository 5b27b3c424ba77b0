'use client';
import { useActionState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { ALERT, NOTICE } from './form-styles';

/** What a dashboard form's server action answers: a refusal, a confirmation, or secrets shown once. */
export interface ActionState {
  message?: string;
  notice?: string;
  /** Shown once (recovery codes, a one-time link); never stored by the page. */
  once?: { title: string; lines: string[] };
}

/**
 * A form posting to a server action, with its answer above the fields (a form post works without
 * JavaScript; with it, the page is not reloaded). The fields are the children.
 */
export function ActionForm({
  action,
  submit,
  variant = 'primary',
  wide = false,
  className,
  children,
}: {
  action: (state: ActionState, form: FormData) => Promise<ActionState>;
  submit: string;
  /** The submit button's kind (docs/decisions/089): `danger` for what cannot be undone. */
  variant?: ButtonVariant;
  /** The submit button as wide as the form (the sign-in card's). */
  wide?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className={className ?? 'space-y-3'}>
      {state.message && (
        <p role="alert" className={ALERT}>
          {state.message}
        </p>
      )}
      {state.notice && (
        <p role="status" className={NOTICE}>
          {state.notice}
        </p>
      )}
      {state.once && (
        <div className="rounded-md border border-wait-line p-3" data-testid="shown-once">
          <p className="font-semibold">{state.once.title}</p>
          <ul className="mt-2 grid grid-cols-1 gap-1 font-mono sm:grid-cols-2">
            {state.once.lines.map((line) => (
              <li key={line} className="break-all">
                {line}
              </li>
            ))}
          </ul>
        </div>
      )}
      {children}
      <Button type="submit" variant={variant} disabled={pending} className={wide ? 'w-full' : undefined}>
        {submit}
      </Button>
    </form>
  );
}
