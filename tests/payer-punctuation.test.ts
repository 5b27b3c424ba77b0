/**
 * The payer's pages put no punctuation of their own between a text and what follows it: the
 * colon after a label, the stop after a title, the dot between the items of a line belong to each
 * language (French "Temps restant : ", Chinese "剩余时间：", Japanese "・"), so they come from the
 * messages' `separators` (lib/pay/messages.ts). This reads the components' sources for a
 * template literal that glues ASCII punctuation to a message (`${m.x}: `, `: ${m.x}`, ` · ${...}`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const FOLDERS = ['components/pay', 'components/invoice', 'components/subscription', 'app/refund/[token]'];

/** `${m.x}: `, `${title}. `, `${a} · `: a placeholder followed by a colon, a stop or a dot; `: ${m.x}`, ` · ${m.x}`: one preceded by them. */
const GLUED = [/\$\{[^}]+\} ?[:.·] /, /[:·] \$\{/];

function sources(): [string, string][] {
  return FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(path.join(ROOT, folder))
      .filter((file) => file.endsWith('.tsx') || file.endsWith('.ts'))
      .map(
        (file) => [path.join(folder, file), fs.readFileSync(path.join(ROOT, folder, file), 'utf8')] as [string, string],
      ),
  );
}

describe("the payer's pages' punctuation", () => {
  it('finds the components', () => {
    expect(sources().map(([file]) => file)).toEqual(
      expect.arrayContaining(['components/pay/countdown.tsx', 'components/pay/transfers.tsx']),
    );
  });

  it('no template literal glues ASCII punctuation to a text: it is the language’s (messages.separators)', () => {
    const found = sources().flatMap(([file, text]) =>
      text
        .split('\n')
        .map((line, i) => [line, i] as const)
        .filter(([line]) => GLUED.some((pattern) => pattern.test(line)))
        .map(([line, i]) => `${file}:${i + 1}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
