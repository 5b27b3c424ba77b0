// The embedded database a test's gateway or CLI process starts on: a copy of one migrated PGlite
// cluster instead of a new one. A new cluster runs initdb in WebAssembly, some 3.5 CPU-seconds per
// process on this machine; a copy of the migrated one costs a twentieth of a second, and opening it
// half a second. Made once per set of migrations and PGlite release, under .tmp/pglite-template/,
// by the product's migrations through drizzle's migrator (what lib/db's migrate() runs); every
// process still runs migrate() on its copy at start, so a template behind the code is caught there.
// Tests whose subject is the first start on an empty directory keep making an empty one.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The environment variable naming the template directory for the test processes (tests/support/data-dir.ts). */
export const TEMPLATE_ENV = 'TEST_PGLITE_TEMPLATE';

/** The template's `pglite` directory for the current migrations, made first when missing. */
export async function ensurePgliteTemplate(root) {
  const migrations = path.join(root, 'lib', 'db', 'migrations');
  const hash = createHash('sha256');
  const pglite = JSON.parse(
    fs.readFileSync(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  );
  hash.update(pglite.version);
  for (const file of filesUnder(migrations)) hash.update(file).update(fs.readFileSync(path.join(migrations, file)));
  const parent = path.join(root, '.tmp', 'pglite-template');
  const dir = path.join(parent, hash.digest('hex').slice(0, 16));
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(parent, { recursive: true });
  // Made aside and renamed into place, so that a run stopped half-way leaves no half a template.
  const making = fs.mkdtempSync(path.join(parent, 'making-'));
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = await PGlite.create(making);
    await migrate(drizzle(client), { migrationsFolder: migrations });
    await client.close();
    // Older templates go: each is 40 MB.
    for (const old of fs.readdirSync(parent).filter((name) => !name.startsWith('making-')))
      fs.rmSync(path.join(parent, old), { recursive: true, force: true });
    fs.renameSync(making, dir);
  } finally {
    fs.rmSync(making, { recursive: true, force: true });
  }
  return dir;
}

function filesUnder(dir, prefix = '') {
  return fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(dir, path.join(prefix, entry.name)) : [path.join(prefix, entry.name)],
    );
}
