'use client';
/**
 * The pages' live data (the payment page's order status, the dashboard order page's refresh) is
 * polled with TanStack Query, the stack's data library (docs/decisions/055): intervals, the pause
 * in a hidden tab, the poll at once when it shows again, and retries are the library's. One client
 * per page render; each query sets its own intervals and retries.
 *
 * `networkMode: 'always'`: a fetch is tried even when the browser says it is offline. The pages
 * tell the shopper they are reconnecting after failed polls; with the library's default ('online')
 * a phone that lost its signal would pause quietly instead, showing a view that may be old.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

export function LiveQueries({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { networkMode: 'always' } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
