'use client';
/**
 * The payment block (QR code, amount) was rendered on the server for the amount left then: when a
 * partial payment changes what is left, the server renders it anew (`router.refresh()`, the same
 * document: no reload).
 */
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

export function usePayBlockRefresh(payable: boolean, remaining: string, renderedFor: string): void {
  const router = useRouter();
  useEffect(() => {
    if (payable && remaining !== renderedFor) router.refresh();
  }, [payable, remaining, renderedFor, router]);
}
