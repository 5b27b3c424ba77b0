/**
 * The work both baselines do per request, shared so that the node:http server and the Next.js
 * route handler do exactly the same thing: HMAC-SHA256 check of the raw body against a key read
 * once, JSON.parse, one INSERT into a simple table of their own, a small JSON answer.
 *
 * Environment: BENCH_PRIVATE_KEY (HMAC key), BENCH_TABLE, and DATABASE_URL (PostgreSQL through a
 * pg Pool) or BENCH_DATA_DIR (embedded PGlite).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface Answer {
  status: number;
  body: string;
}

interface Store {
  insert(order: string, nonce: string, amount: string): Promise<string>;
}

const TABLE = /^[a-z_]+$/.test(process.env.BENCH_TABLE ?? '') ? process.env.BENCH_TABLE! : 'bench_baseline';
const INSERT = `insert into ${TABLE} (client_order_id, nonce, amount) values ($1, $2, $3) returning id`;
const CREATE = `create table if not exists ${TABLE} (
  id bigserial primary key, client_order_id text not null, nonce bigint not null,
  amount numeric not null, created_at timestamptz not null default now())`;

async function openStore(): Promise<Store> {
  const url = process.env.DATABASE_URL;
  if (url) {
    // Same pool size as the gateway's default DB_POOL_SIZE, so both have the same DB concurrency.
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    await pool.query(CREATE);
    return {
      async insert(order, nonce, amount) {
        // A named statement, as the gateway uses for its hot statement.
        const result = await pool.query<{ id: string }>({
          name: 'bench_insert',
          text: INSERT,
          values: [order, nonce, amount],
        });
        return result.rows[0]!.id;
      },
    };
  }
  const dir = process.env.BENCH_DATA_DIR;
  if (!dir) throw new Error('baseline: set DATABASE_URL or BENCH_DATA_DIR');
  const db = await PGlite.create(dir);
  await db.exec(CREATE);
  return {
    async insert(order, nonce, amount) {
      const result = await db.query<{ id: string }>(INSERT, [order, nonce, amount]);
      return String(result.rows[0]!.id);
    },
  };
}

// Opened on the first request, not at import: `next build` imports route modules.
let store: Promise<Store> | undefined;
let secret: Buffer | undefined;

function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value) };
}

/** Verifies, parses and stores one request; never throws (a failure is a JSON error answer). */
export async function handleOrder(rawBody: Buffer, signature: string | null | undefined): Promise<Answer> {
  try {
    secret ??= Buffer.from(process.env.BENCH_PRIVATE_KEY ?? '', 'utf8');
    const sig = signature?.trim() ?? '';
    if (!/^[0-9a-fA-F]{64}$/.test(sig)) return json(401, { success: false, error: 'INVALID_SIGNATURE' });
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    if (!timingSafeEqual(expected, Buffer.from(sig, 'hex')))
      return json(401, { success: false, error: 'INVALID_SIGNATURE' });
    const body = JSON.parse(rawBody.toString('utf8')) as { order?: unknown; nonce?: unknown; amount?: unknown };
    store ??= openStore();
    const id = await (await store).insert(String(body.order), String(body.nonce), String(body.amount));
    return json(200, { success: true, response: { id, order: body.order } });
  } catch (error) {
    return json(500, { success: false, error: error instanceof Error ? error.message : String(error) });
  }
}
