import fs from 'node:fs';
import os from 'node:os';
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

/**
 * A folder laid out as `npm start` leaves the gateway's for a newcomer: `data/demo-store.json`
 * (owner-only, as the server writes it) holding `keys`, the merchant an example signs as.
 */
export function newcomerFolder(keys: { merchantId: string; publicKey: string; privateKey: string }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-newcomer-'));
  fs.mkdirSync(path.join(dir, 'data'));
  fs.mkdirSync(path.join(dir, 'home'));
  fs.writeFileSync(path.join(dir, 'data', 'demo-store.json'), JSON.stringify(keys, null, 2), { mode: 0o600 });
  return dir;
}

/**
 * What a newcomer types in a fresh shell in `dir` to run an example: the command its first line
 * gives (`// node sign.mjs`, `# python3 sign.py`), with the code saved under that name, or, for a
 * shell example, its own lines.
 */
export function exampleScript(dir: string, code: string): string {
  const command = /^(?:\/\/|#) *((?:node|python3) ([\w.-]+))(?: |$)/m.exec(code.split('\n')[0]!);
  if (!command) return code;
  fs.writeFileSync(path.join(dir, command[2]!), code);
  return command[1]!;
}

/**
 * The environment of a fresh shell: nothing from the test but PATH (with this Node.js first, the
 * `node` the newcomer has) and an empty HOME, plus the variables the example documents (`documented`).
 */
export function freshShellEnv(dir: string, documented: Record<string, string> = {}): NodeJS.ProcessEnv {
  const PATH = [path.dirname(process.execPath), process.env.PATH ?? '/usr/bin:/bin'].join(path.delimiter);
  // No NODE_ENV, which the type asks for: a newcomer's shell has none.
  const env: Record<string, string> = { PATH, HOME: path.join(dir, 'home'), ...documented };
  return env as NodeJS.ProcessEnv;
}
