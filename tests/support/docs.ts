import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The first fenced code block after `marker` in `file` (a path from the repository's root, such as
 * `docs/api.md`): tests run the docs' examples as written.
 */
export function docCodeAfter(file: string, marker: string): string {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${file} has no ${marker}`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) throw new Error(`${file} has no code block after ${marker}`);
  return block[1]!;
}
