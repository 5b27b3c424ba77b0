'use client';
/**
 * The endpoint forms whose answer carries a secret: "Add endpoint" and "Roll secret…". The secret
 * is shown once, from the action's answer, with a copy button; no page load shows it again.
 */
import { useActionState } from 'react';
import { CopyButton } from '@/components/pay/copy-button';
import type { EndpointSecretState } from './actions';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

type Action = (state: EndpointSecretState, form: FormData) => Promise<EndpointSecretState>;

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function Answer({ state, title }: { state: EndpointSecretState; title: string }) {
  if (!state) return null;
  if (!state.ok)
    return (
      <p role="alert" className="mt-2 rounded-md bg-bad-surface px-3 py-2 text-sm text-bad-ink">
        {state.error}
      </p>
    );
  return (
    <section
      aria-label={title}
      data-testid="endpoint-secret"
      className="mt-3 rounded-lg border-2 border-wait-line bg-wait-surface p-3 text-sm text-wait-ink"
    >
      <h3 className="font-semibold">{title}</h3>
      <p role="status" className="mt-1 font-medium">
        Copy the signing secret now: it is stored encrypted and is not shown again.
      </p>
      {state.previousSecretExpiresAt && (
        <p className="mt-1" data-testid="previous-secret-expires">
          {`Deliveries are signed with the old secret too until ${when(state.previousSecretExpiresAt)}.`}
        </p>
      )}
      <div className="mt-2 flex items-start justify-between gap-2">
        <code data-testid="secret" className="min-w-0 break-all font-mono">
          {state.secret}
        </code>
        <CopyButton value={state.secret} label="Copy the signing secret" text="Copy" done="Copied" />
      </div>
    </section>
  );
}

export function CreateEndpoint({
  action,
  types,
}: {
  action: Action;
  types: readonly { value: string; description: string }[];
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <div>
      <form action={formAction} className="grid gap-3">
        <Label>
          URL
          <Input name="url" type="url" required placeholder="https://shop.example/hooks/gateway" />
        </Label>
        <Label>
          Description (optional)
          <Input name="description" maxLength={200} />
        </Label>
        <fieldset>
          <legend className="text-sm font-medium">Event types</legend>
          <label className="mt-1 flex items-center gap-2 text-sm">
            <input type="checkbox" name="eventTypes" value="*" defaultChecked className="h-4 w-4" />
            All events (types added later too)
          </label>
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            {types.map((type) => (
              <label key={type.value} className="flex items-center gap-2 text-sm" title={type.description}>
                <input type="checkbox" name="eventTypes" value={type.value} className="h-4 w-4" />
                <code>{type.value}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <Button type="submit" disabled={pending} variant="primary">
            Add endpoint
          </Button>
        </div>
      </form>
      <Answer state={state} title="Endpoint added" />
    </div>
  );
}

export function RollSecret({
  action,
  endpointId,
  overlap,
}: {
  action: Action;
  endpointId: string;
  overlap: { min: number; max: number; default: number };
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <Dialog trigger="Roll secret…" title="Roll the signing secret" open={state !== null} closeOnSubmit={false}>
      <form action={formAction} className="mt-2">
        <input type="hidden" name="id" value={endpointId} />
        <p>
          Makes a new signing secret. During the overlap every delivery carries two signatures (the new secret&apos;s
          first), so your receiver can switch to the new secret at any moment; after it, only the new one.
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
      <Answer state={state} title="Secret rolled" />
    </Dialog>
  );
}
