/**
 * One visual language for the payer's pages and the dashboard (docs/decisions/101): the design
 * tokens of app/globals.css, light and dark, readable on their surfaces by WCAG's numbers; the
 * dashboard kit's primary button and the payer's drawn from the same tokens, with the same focus
 * ring; the merchant's brand colour taking the primary's place on a branded payer page only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeLuminance } from '@/lib/merchants/brand';
import { BUTTON_VARIANTS } from '@/components/ui/button';
import { BUTTON as PAYER_BUTTON } from '@/components/pay/ui';

const ROOT = join(import.meta.dirname, '..');
const css = readFileSync(join(ROOT, 'app/globals.css'), 'utf8');

/** The `--name: #rrggbb` declarations of the block that opens at `start`. */
function tokens(start: RegExp): Record<string, string> {
  const from = css.search(start);
  expect(from, String(start)).toBeGreaterThanOrEqual(0);
  const block = css.slice(from, css.indexOf('}', from));
  return Object.fromEntries([...block.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6});/g)].map((m) => [m[1]!, m[2]!]));
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

const light = tokens(/^:root \{\s*--surface:/m);
const dark = tokens(/^ {2}:root \{\s*--surface:/m);

/** Text on its background: WCAG AA for text (4.5), for a focus ring or a control's edge (3). */
const PAIRS: [string, string, number][] = [
  ['ink', 'surface', 4.5],
  ['muted', 'surface', 4.5],
  ['muted', 'surface-raised', 4.5],
  ['ink', 'surface-raised', 4.5],
  ['link', 'surface', 4.5],
  ['link-hover', 'surface', 4.5],
  ['on-primary', 'primary', 4.5],
  ['on-primary', 'primary-hover', 4.5],
  ['focus', 'surface', 3],
  ['line-strong', 'surface', 3],
  ['line-strong', 'surface-raised', 3],
  ['good-ink', 'good-surface', 4.5],
  ['bad-ink', 'bad-surface', 4.5],
  ['wait-ink', 'wait-surface', 4.5],
  ['info-ink', 'info-surface', 4.5],
  ['test-ink', 'test-surface', 4.5],
  ['ink', 'quiet-surface', 4.5],
  ['on-danger', 'danger', 4.5],
  ['on-danger', 'danger-hover', 4.5],
  ['on-tag', 'tag', 4.5],
  ['on-good-strong', 'good-strong', 4.5],
  // A field's error on the page; the countdown's last minutes in the pending panel's tones.
  ['bad-text', 'surface', 4.5],
  ['bad-text', 'surface-raised', 4.5],
  ['bad-text', 'info-surface', 4.5],
  ['bad-text', 'wait-surface', 4.5],
  ['good-text', 'surface', 4.5],
  ['good-text', 'surface-raised', 4.5],
  // The chosen coin's edge, and a confirmations bar's fill on its track (WCAG 1.4.11).
  ['info-line', 'surface', 3],
  ['info-line', 'line', 3],
  // An invalid control's edge.
  ['bad-line', 'surface', 3],
];

/**
 * Every page and component, the payer's, the dashboard's, the point of sale's and the demo
 * store's: each colour is a token's (decision 101). A class naming a Tailwind palette shade, white
 * or black, or an arbitrary hex colour, is refused unless listed below with its reason.
 */
const TOKENS_ONLY = ['app', 'components'].flatMap((dir) => readdirTsx(dir));
const RAW_COLOUR =
  /\b(?:bg|text|border|divide|ring|outline|from|via|to|fill|stroke|placeholder|decoration|accent|caret|shadow)-(?:(?:slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose)-\d{2,3}|white|black)\b|\[#[0-9a-fA-F]{3,8}\]/g;
const ALLOWED: Record<string, { classes: string[]; reason: string }> = {
  'app/dashboard/pos/page.tsx': {
    classes: ['bg-white'],
    reason: "the QR code's quiet zone: a scanner reads dark modules on white, in either scheme",
  },
  'components/pay/payment-page.tsx': {
    classes: ['bg-white'],
    reason: "the QR code's quiet zone: a scanner reads dark modules on white, in either scheme",
  },
  'app/dashboard/(app)/links/[linkId]/page.tsx': {
    classes: ['bg-white'],
    reason: "the QR code's quiet zone: a scanner reads dark modules on white, in either scheme",
  },
  'app/dashboard/(app)/account/page.tsx': {
    classes: ['bg-white'],
    reason: "the QR code's quiet zone: a scanner reads dark modules on white, in either scheme",
  },
  'app/dashboard/(app)/settings/page.tsx': {
    classes: ['bg-white'],
    reason: "the merchant's logo previewed on white, so that a dark logo stays visible in dark mode",
  },
  'app/dashboard/(app)/mail/[mailId]/page.tsx': {
    classes: ['bg-white'],
    reason:
      "an e-mail's HTML shown on white, as a mail client shows it: a message's dark text must not fall on the dark scheme's surface",
  },
  'app/store/checkout/page.tsx': {
    classes: ['bg-emerald-700', 'text-white'],
    reason: "the demo store's own brand colour on its pay button: the merchant's site, not the gateway's",
  },
  'app/store/orders/[id]/page.tsx': {
    classes: ['bg-emerald-700', 'text-white'],
    reason: "the demo store's own brand colour on its pay button: the merchant's site, not the gateway's",
  },
};

describe('the design tokens', () => {
  it('defines every token in light and in dark', () => {
    expect(Object.keys(light).length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(dark).sort()).toEqual(Object.keys(light).sort());
    for (const name of Object.keys(light))
      expect(css, name).toMatch(new RegExp(`--color-[a-z-]+: var\\(--${name}\\);`));
  });

  it.each(PAIRS)('%s on %s reads by WCAG AA in both schemes', (text, background, minimum) => {
    for (const [scheme, set] of [
      ['light', light],
      ['dark', dark],
    ] as const)
      expect(contrast(set[text]!, set[background]!), `${text} on ${background}, ${scheme}`).toBeGreaterThanOrEqual(
        minimum,
      );
  });

  it("the payer's primary button is the dashboard's, in the brand colour on a branded page", () => {
    for (const look of [BUTTON_VARIANTS.primary, PAYER_BUTTON]) {
      expect(look).toMatch(/\bbg-primary\b/);
      expect(look).toMatch(/\btext-on-primary\b/);
      expect(look).not.toMatch(/\b(?:bg|text)-slate-\d+/);
    }
    expect(PAYER_BUTTON).toMatch(/\bfocus-ring\b/);
    expect(css).toMatch(/\[data-brand\] \{\s*--primary: var\(--brand\);/);
  });

  it('colours every page and component by token', () => {
    expect(TOKENS_ONLY.length).toBeGreaterThan(150);
    const raw = Object.fromEntries(
      TOKENS_ONLY.map((file) => [file, [...new Set(readFileSync(join(ROOT, file), 'utf8').match(RAW_COLOUR) ?? [])]]),
    );
    for (const file of TOKENS_ONLY) expect(raw[file], file).toEqual(ALLOWED[file]?.classes ?? []);
  });

  it("puts the demo store's titles on the type scale", () => {
    for (const file of readdirTsx('app/store'))
      expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/\btext-(?:lg|xl|[2-9]xl)\b/);
  });

  it('draws one focus ring: no page or component writes its own', () => {
    const files = ['app', 'components'].flatMap((dir) => readdirTsx(dir).filter((file) => !/\.test\.tsx?$/.test(file)));
    expect(files.length).toBeGreaterThan(50);
    const own = files.filter((file) => /\boutline-(?:sky|slate|blue)-\d+/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(own).toEqual([]);
  });
});

function readdirTsx(dir: string): string[] {
  return (readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => join(dir, file));
}
