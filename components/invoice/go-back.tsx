'use client';
/** "Go back" to the page that linked here, drawn only where script runs and there is a page to go back to. */
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

export function GoBack({ text, className }: { text: string; className?: string }) {
  const canGoBack = useSyncExternalStore(
    noSubscription,
    () => window.history.length > 1,
    () => false,
  );
  if (!canGoBack) return null;
  return (
    <button type="button" onClick={() => window.history.back()} className={className}>
      {text}
    </button>
  );
}
