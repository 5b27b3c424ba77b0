/**
 * The dashboard draws its controls with one kit (components/ui, docs/decisions/089): no page or
 * dashboard component writes a `<button>`, a `<select>`, a text `<input>`, a `<summary>` or a
 * button's class string of its own, and the payer's pages never import the kit. Every signed-in
 * page's body is one component, `PageBody` (components/dashboard/ui.tsx), so that its title starts
 * where every other page's does (e2e/polish.spec.ts measures it in the browser).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => join(dir, file));
}

/** The opening tags of a file's JSX elements of one name, attributes and all (braces balanced). */
function openingTags(text: string, name: string): string[] {
  const tags: string[] = [];
  const start = new RegExp(`<${name}\\b`, 'g');
  for (let match = start.exec(text); match; match = start.exec(text)) {
    let depth = 0;
    let end = match.index;
    for (; end < text.length; end++) {
      const char = text[end];
      if (char === '{') depth++;
      else if (char === '}') depth--;
      else if (char === '>' && depth === 0) break;
    }
    tags.push(text.slice(match.index, end + 1));
  }
  return tags;
}

/** A class string that draws a button: rounded, padded, a hover background, and a border or a filled colour. */
const BUTTON_LOOK = /["'`][^"'`]*\brounded\b[^"'`]*["'`]|["'`][^"'`]*\brounded-(?:md|lg)\b[^"'`]*["'`]/g;
const isButtonLook = (classes: string) =>
  /\bpx-\d/.test(classes) && /\bhover:bg-/.test(classes) && /(?<![:\w-])(?:border|bg-[a-z]+-[6-9]00)\b/.test(classes);

/** What a dashboard file may not contain, each with what to use instead. */
export function kitViolations(text: string): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, ''); // comments may name the elements
  for (const name of ['button', 'select', 'textarea', 'summary', 'details', 'dialog'])
    if (openingTags(code, name).length > 0) found.push(`<${name}>: use the kit's component`);
  for (const tag of openingTags(code, 'input'))
    if (!/type="(?:hidden|radio|checkbox|color)"/.test(tag)) found.push(`${tag.split('\n')[0]}: use Input`);
  for (const match of code.matchAll(/\b[A-Z_]*BUTTON[A-Z_]*\b/g)) found.push(`${match[0]}: use Button's variant`);
  for (const match of code.matchAll(BUTTON_LOOK))
    if (isButtonLook(match[0])) found.push(`${match[0].slice(0, 60)}…: a button's classes; use Button`);
  return found;
}

describe('the dashboard component kit', () => {
  const dashboard = [...sources('app/dashboard'), ...sources('components/dashboard')];

  it('finds the things it looks for (the check can fail)', () => {
    expect(kitViolations('<button type="submit" className={BUTTON}>Go</button>')).toHaveLength(2);
    expect(kitViolations('<summary className="x">More</summary>')).toHaveLength(1);
    expect(kitViolations('<input name="q" className="block" />')).toHaveLength(1);
    expect(kitViolations('<input type="hidden" name="id" value={id} />')).toEqual([]);
    expect(
      kitViolations('<a className="rounded-md border border-slate-400 px-3 py-1.5 hover:bg-slate-100">Next</a>'),
    ).toHaveLength(1);
    expect(kitViolations('<a className="block rounded-md px-2 py-1.5 hover:bg-slate-100">Orders</a>')).toEqual([]);
  });

  it.each(dashboard)('%s draws its controls with components/ui', (file) => {
    expect(kitViolations(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  const pages = sources('app/dashboard/(app)').filter((file) => /(^|\/)(page|not-found)\.tsx$/.test(file));

  it.each(pages)('%s lays its body out with PageBody, with no heading or offset of its own', (file) => {
    const code = readFileSync(join(ROOT, file), 'utf8');
    expect(openingTags(code, 'PageBody').length).toBeGreaterThan(0);
    expect(openingTags(code, 'h1')).toEqual([]);
    // A page of its own width or padding would start its title elsewhere.
    expect(code).not.toMatch(/\bmx-auto\b/);
  });

  it("the payer's pages do not import the kit (their first load stays as it is)", () => {
    const payer = ['components/pay', 'components/invoice', 'components/link', 'components/store', 'app/pay'].flatMap(
      (dir) => {
        try {
          return sources(dir);
        } catch {
          return [];
        }
      },
    );
    expect(payer.length).toBeGreaterThan(0);
    for (const file of payer) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/@\/components\/ui\b/);
  });
});
