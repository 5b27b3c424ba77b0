/**
 * npm run db -- export FILE    writes the whole database (DATABASE_URL, else the embedded one in DATA_DIR) to FILE
 * npm run db -- import FILE    loads FILE into a new, empty database (DATABASE_URL, else DATA_DIR), verified
 *
 * The embedded database has one owner: both refuse to run while a server (or anything else)
 * holds the data directory, rather than read a database that is being written. Stop the server
 * first. lib/db/transfer.ts describes the file and the checks.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { config } from '../lib/config';
import { exportDatabase, getDatabase, importDatabase, type TableSummary } from '../lib/db';
import { fail, parseCommandLine } from './cli-runtime';

const USAGE = `usage:
  npm run db -- export FILE [--force]   (from DATABASE_URL, else the embedded database in DATA_DIR)
  npm run db -- import FILE             (into DATABASE_URL, else DATA_DIR; the target must be empty)`;

function where(): string {
  const cfg = config();
  return cfg.databaseUrl ? `PostgreSQL (${new URL(cfg.databaseUrl).host})` : `the embedded database in ${cfg.dataDir}`;
}

const line = (t: TableSummary) =>
  console.log(`  ${t.table.padEnd(24)} ${String(t.rows).padStart(9)} rows  sha256 ${t.sha256.slice(0, 16)}`);

/**
 * The file's lines, read from the first one asked for: a readline interface starts reading at
 * once, and lines read before anyone listens are lost (the import first checks the target).
 */
async function* fileLines(file: string): AsyncGenerator<string> {
  yield* readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
}

async function main(): Promise<void> {
  const { positionals, values } = parseCommandLine({ force: { type: 'boolean' } }, USAGE);
  const [action, file] = positionals;
  if ((action !== 'export' && action !== 'import') || !file) fail(USAGE);
  if (action === 'export') {
    if (fs.existsSync(file) && !values.force) fail(`${file} exists; choose another name or add --force`);
    const db = await getDatabase();
    const partial = `${file}.partial`;
    const out = fs.createWriteStream(partial, { mode: 0o600 });
    const write = (text: string) =>
      new Promise<void>((resolve, reject) =>
        out.write(text) ? resolve() : out.once('drain', resolve).once('error', reject),
      );
    try {
      console.log(`Exporting ${where()} to ${file}:`);
      const summary = await exportDatabase(db, write, line);
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      fs.renameSync(partial, file);
      const rows = summary.tables.reduce((n, t) => n + t.rows, 0);
      console.log(
        `Exported ${rows} rows of ${summary.tables.length} tables and ${summary.sequences} sequences at migration ${summary.migrations}.`,
      );
      console.log(
        'The file holds API keys and two-factor secrets encrypted with APP_SECRET: the target needs the same APP_SECRET. Keep the file private.',
      );
    } finally {
      out.destroy();
      fs.rmSync(partial, { force: true });
      await db.close();
    }
    return;
  }
  if (!fs.existsSync(file)) fail(`${file} does not exist`);
  const db = await getDatabase();
  try {
    console.log(`Importing ${file} into ${where()} (one transaction; nothing is written unless every table verifies):`);
    const summary = await importDatabase(db, fileLines(file), line);
    const rows = summary.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `Imported and verified ${rows} rows of ${summary.tables.length} tables (counts and checksums equal) and ${summary.sequences} sequences.`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
