'use client';
/**
 * A dialog on Radix (focus kept inside, Escape and the close button close it, focus back on the
 * trigger, the page behind hidden from screen readers and not scrolled). Without JavaScript, and
 * until the page is hydrated, it is a `<details>` whose summary opens the same content in place, so
 * every form inside still posts (docs/decisions/089).
 *
 * The content is not portalled: it stays where the trigger is (a table row), so that a label, a
 * radio or a row's other controls are found beside it, as they are without JavaScript.
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { buttonClasses, type ButtonVariant } from './button';

export function Dialog({
  trigger,
  title,
  triggerVariant = 'secondary',
  open: keepOpen = false,
  closeOnSubmit = true,
  children,
}: {
  /** The trigger's words, ending in "…" since it asks before it acts. */
  trigger: string;
  title: string;
  triggerVariant?: ButtonVariant;
  /** Open on arrival and while true: an action's answer shown inside (a key shown once). */
  open?: boolean;
  /**
   * Close when a form inside is sent: its action answers on the page (a redirect with a notice),
   * which the open dialog would hide. A dialog that shows the answer itself says false.
   */
  closeOnSubmit?: boolean;
  children: ReactNode;
}) {
  const fallback = useRef<HTMLDetailsElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(keepOpen);
  useEffect(() => {
    // A press on the summary before hydration is kept: the dialog opens where the details was open.
    setOpen((was) => was || (fallback.current?.open ?? false));
    setHydrated(true);
  }, []);
  // An answer arriving opens it again (state adjusted while rendering, as React advises over an effect).
  const [answered, setAnswered] = useState(keepOpen);
  if (keepOpen !== answered) {
    setAnswered(keepOpen);
    if (keepOpen) setOpen(true);
  }

  if (!hydrated)
    return (
      <details ref={fallback} open={keepOpen || undefined}>
        <summary className={buttonClasses(triggerVariant, 'md', 'cursor-pointer list-none')}>{trigger}</summary>
        <div className="mt-2 w-72 max-w-full rounded-md border border-line-strong p-3 text-sm">
          <p className="font-semibold">{title}</p>
          {children}
        </div>
      </details>
    );
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger className={buttonClasses(triggerVariant)}>{trigger}</RadixDialog.Trigger>
      <RadixDialog.Overlay className="fixed inset-0 z-40 bg-scrim/60" />
      <RadixDialog.Content
        aria-describedby={undefined}
        onSubmit={closeOnSubmit ? () => setOpen(false) : undefined}
        className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-line-strong bg-surface p-4 text-start text-sm whitespace-normal text-ink shadow-xl"
      >
        <div className="flex items-start justify-between gap-3">
          <RadixDialog.Title className="text-base font-semibold">{title}</RadixDialog.Title>
          <RadixDialog.Close className={buttonClasses('secondary', 'md', 'px-2 py-0.5')}>Close</RadixDialog.Close>
        </div>
        {children}
      </RadixDialog.Content>
    </RadixDialog.Root>
  );
}
