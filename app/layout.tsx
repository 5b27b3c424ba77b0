import type { Metadata } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { directionOf, LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import './globals.css';

export const metadata: Metadata = {
  title: 'Crypto payment gateway',
  description: 'Self-hosted crypto payment gateway with a hosted checkout page',
};

/**
 * Reads the request's headers, so every page is rendered per request: the CSP nonce of
 * proxy.ts needs that, and so does the payment page's language (`lang`, `dir`).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const language = languageFrom((await headers()).get(LANGUAGE_HEADER));
  return (
    <html lang={language} dir={directionOf(language)}>
      <body className="min-h-screen bg-surface text-ink antialiased">{children}</body>
    </html>
  );
}
