/**
 * The merchant's brand on the payer's pages (payment and invoice), drawn on the server: the
 * logo beside "Pay to ..." and the accent colour, set as `--brand` on the page's <main>, which
 * app/globals.css makes the `primary` design token there: the primary buttons (also inside the
 * client leaves, which so need no new prop) and the header's line. Without a brand nothing here
 * renders anything, and the pages take the neutral primary the dashboard has.
 */
import type { CSSProperties, ReactNode } from 'react';
import type { PublicBrand } from '@/lib/pay/view';

/** Props for the page's <main>: the accent colour as a CSS variable, when there is one. */
export function brandProps(brand: PublicBrand): { 'data-brand'?: string; style?: CSSProperties } {
  // The colour was checked `#rrggbb` when saved (lib/merchants BRAND_COLOR): nothing else reaches the style.
  return brand.color ? { 'data-brand': '', style: { '--brand': brand.color } as CSSProperties } : {};
}

/** The header's classes: a line in the accent colour under it when there is one. */
export function brandHeaderClass(brand: PublicBrand): string {
  return brand.color ? 'border-b-4 border-primary pb-2' : '';
}

/** "Pay to {merchant}", after the merchant's logo when there is one (its alt text is the merchant's name). */
export function MerchantLine({
  brand,
  merchant,
  children,
}: {
  brand: PublicBrand;
  merchant: string;
  children: ReactNode;
}) {
  const line = <p className="font-medium">{children}</p>;
  if (!brand.logo) return line;
  // A data: URL (the CSP's img-src allows data:) of at most 100 KB: next/image has nothing to add.
  return (
    <div className="flex min-w-0 items-center gap-3">
      <img src={brand.logo} alt={merchant} data-testid="brand-logo" className="h-10 w-auto max-w-40 object-contain" />
      {line}
    </div>
  );
}
