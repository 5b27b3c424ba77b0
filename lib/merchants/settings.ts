import 'server-only';
import type { Queryable } from '../db';
import type { ExplorerChanges } from './brand';

export interface MerchantSettings {
  name: string;
  /** A data: URL of a PNG, JPEG, WebP or GIF image (lib/merchants/brand.ts LOGO_UPLOAD), or null. */
  brandLogo: string | null;
  /** `#rrggbb` on which white text passes WCAG AA, or null. */
  brandColor: string | null;
  /** Explorer link templates the merchant set, per network; other networks use the defaults. */
  explorerUrls: Record<string, string>;
  requireTwoFactor: boolean;
}

export async function merchantSettings(db: Queryable, merchantId: string): Promise<MerchantSettings | undefined> {
  const [row] = await db.query<{ name: string; brand_logo: string | null; brand_color: string | null; explorer_urls: Record<string, string>; require_two_factor: boolean }>(
    'select name, brand_logo, brand_color, explorer_urls, require_two_factor from merchants where id = $1',
    [merchantId],
  );
  return (
    row && {
      name: row.name,
      brandLogo: row.brand_logo,
      brandColor: row.brand_color,
      explorerUrls: row.explorer_urls,
      requireTwoFactor: row.require_two_factor,
    }
  );
}

/**
 * Sets the brand the payment and invoice pages show. `logo`: a data: URL from LOGO_UPLOAD, null to
 * remove it, undefined to keep it; `color`: from BRAND_COLOR, or null for the default look. Answers
 * what changed, for the audit log (never the logo itself: only whether it changed).
 */
export async function updateBrand(
  db: Queryable,
  merchantId: string,
  brand: { logo?: string | null; color: string | null },
): Promise<{ logo: 'set' | 'removed' | 'kept'; color: string | null }> {
  await db.query(
    `update merchants set brand_color = $2, brand_logo = case when $3::boolean then $4 else brand_logo end where id = $1`,
    [merchantId, brand.color, brand.logo !== undefined, brand.logo ?? null],
  );
  return { logo: brand.logo === undefined ? 'kept' : brand.logo === null ? 'removed' : 'set', color: brand.color };
}

/** Sets or resets (null: back to the default link) the explorer templates of the networks named. */
export async function updateExplorers(db: Queryable, merchantId: string, changes: ExplorerChanges): Promise<Record<string, string>> {
  const set = Object.fromEntries(Object.entries(changes).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const reset = Object.entries(changes)
    .filter(([, template]) => template === null)
    .map(([network]) => network);
  const [row] = await db.query<{ explorer_urls: Record<string, string> }>(
    `update merchants set explorer_urls = (explorer_urls || $2::jsonb) - $3::text[] where id = $1 returning explorer_urls`,
    [merchantId, JSON.stringify(set), reset],
  );
  return row?.explorer_urls ?? {};
}

export async function setRequireTwoFactor(db: Queryable, merchantId: string, required: boolean): Promise<void> {
  await db.query('update merchants set require_two_factor = $2 where id = $1', [merchantId, required]);
}
