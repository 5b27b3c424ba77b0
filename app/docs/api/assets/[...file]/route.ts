/**
 * The API reference's own files, served by the gateway from its installed packages (no CDN, so
 * /docs/api works on a machine without internet, docs/decisions/087): Scalar's prebuilt browser
 * module and the chunks it imports on demand (@scalar/api-reference, dist/browser), and the
 * Latin slice of Noto Sans (@fontsource-variable/noto-sans), the font the page is set in.
 *
 * Only names of those two shapes are read, one folder deep at most; anything else is a 404.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REFERENCE_FONT } from '../../reference';

const NODE_MODULES = path.join(process.cwd(), 'node_modules');
const SCALAR = path.join(NODE_MODULES, '@scalar', 'api-reference', 'dist', 'browser');

/** A served name and its file; a name starting with a dot never matches, so `..` cannot climb. */
function fileOf(name: string): { file: string; type: string } | null {
  if (name === REFERENCE_FONT)
    return { file: path.join(NODE_MODULES, '@fontsource-variable', 'noto-sans', 'files', name), type: 'font/woff2' };
  const script = /^scalar\/((?:chunks\/)?[A-Za-z0-9_-][A-Za-z0-9._-]*\.js)$/.exec(name);
  if (script) return { file: path.join(SCALAR, script[1]!), type: 'text/javascript; charset=utf-8' };
  return null;
}

const notFound = () =>
  new Response('Not found.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export async function GET(_request: Request, { params }: { params: Promise<{ file: string[] }> }): Promise<Response> {
  const found = fileOf((await params).file.join('/'));
  if (!found) return notFound();
  let body: Buffer;
  try {
    body = await readFile(found.file);
  } catch {
    return notFound();
  }
  return new Response(new Uint8Array(body), {
    headers: { 'content-type': found.type, 'cache-control': 'public, max-age=86400' },
  });
}
