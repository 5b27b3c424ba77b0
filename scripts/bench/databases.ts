import pg from 'pg';
import { openDatabase, type Database } from '../../lib/db/client';
import { tempDir } from './servers';

export interface BenchDatabase {
  db: Database;
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database named `name` for one benchmark run: a PGlite data directory when
 * there is no `adminUrl`, else a database of its own on that PostgreSQL server, dropped on dispose.
 */
export async function freshDatabase(name: string, adminUrl: string | undefined, poolSize = 10): Promise<BenchDatabase> {
  if (!adminUrl) {
    const db = await openDatabase({ dataDir: tempDir(`gw-${name}-`) });
    await db.migrate();
    return { db, dispose: () => db.close() };
  }
  const database = `${name.replace(/\W/g, '_')}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const db = await openDatabase({ url: url.toString(), poolSize });
  await db.migrate();
  return {
    db,
    async dispose() {
      await db.close();
      await admin(`drop database if exists ${database} with (force)`);
    },
  };
}
