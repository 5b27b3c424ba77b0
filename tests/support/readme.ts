import fs from 'node:fs';
import path from 'node:path';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The first fenced code block after `marker` in the README: tests run the examples as written. */
export function readmeCodeAfter(marker: string): string {
  const at = README.indexOf(marker);
  if (at < 0) throw new Error(`README has no ${marker}`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(README.slice(at));
  if (!block) throw new Error(`README has no code block after ${marker}`);
  return block[1]!;
}
