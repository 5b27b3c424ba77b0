/**
 * A key pair just made (by "Create key" or "Roll"), shown once from the action's answer with copy
 * buttons: nothing else holds the private key, and a reload shows the list only.
 */
import type { ReactNode } from 'react';
import { CopyButton } from '@/components/pay/copy-button';
import type { Mode } from '@/lib/protocol';

export function IssuedKey({
  title,
  mode,
  publicKey,
  privateKey,
  children,
}: {
  title: string;
  mode: Mode;
  publicKey: string;
  privateKey: string;
  /** What else the person must know about this key (a roll's overlap). */
  children?: ReactNode;
}) {
  return (
    <section
      aria-label={title}
      data-testid="new-key"
      data-mode={mode}
      className="mt-4 rounded-lg border-2 border-wait-line bg-wait-surface p-4 text-wait-ink"
    >
      <h2 className="font-semibold">{title}</h2>
      <p role="status" className="mt-1 text-sm font-medium">
        Copy the private key now: it is stored encrypted and is not shown again.
      </p>
      {children}
      <dl className="mt-3 space-y-3 text-sm">
        <div>
          <dt className="font-medium">Public key</dt>
          <dd className="mt-1 flex items-start justify-between gap-2">
            <code data-testid="new-public-key" className="min-w-0 break-all font-mono">
              {publicKey}
            </code>
            <CopyButton value={publicKey} label="Copy the public key" text="Copy" done="Copied" />
          </dd>
        </div>
        <div>
          <dt className="font-medium">Private key</dt>
          <dd className="mt-1 flex items-start justify-between gap-2">
            <code data-testid="new-private-key" className="min-w-0 break-all font-mono">
              {privateKey}
            </code>
            <CopyButton value={privateKey} label="Copy the private key" text="Copy" done="Copied" />
          </dd>
        </div>
      </dl>
    </section>
  );
}
