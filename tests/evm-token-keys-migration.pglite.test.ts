/**
 * Migration 0010 (docs/decisions/046): live EVM token transfers recorded under their log's index
 * in the block are re-keyed by their position among their transaction's token transfers, from 1,
 * in `chain_transfers`, `payments` and `deposits` alike; every other row keeps its key. A database
 * migrated up to 0009 gets rows as the old adapter wrote them, then the product's migrations run.
 * The SQL is PostgreSQL's own (no locking, nothing the two databases do differently): embedded only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '@/lib/db/client';

const BEFORE = '0009_transfer_tag';
const MERCHANT = '00000000-0000-4000-8000-000000000001';
const ORDER = '00000000-0000-4000-8000-000000000002';
const tx = (n: number) => `0x${String(n).repeat(64)}`;

let pg: PGlite;
let dir: string;

/** The migrations folder as it was up to and with `last`. */
function migrationsUpTo(last: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-migrations-'));
  fs.cpSync(MIGRATIONS_FOLDER, copy, { recursive: true });
  const journalFile = path.join(copy, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === last);
  if (end < 0) throw new Error(`no migration ${last}`);
  journal.entries = journal.entries.slice(0, end + 1);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return copy;
}

beforeAll(async () => {
  dir = migrationsUpTo(BEFORE);
  pg = await PGlite.create('memory://');
  await migrate(drizzle(pg), { migrationsFolder: dir });
  await pg.exec(`
    insert into merchants (id, name) values ('${MERCHANT}', 'm');
    insert into addresses (id, network, mode, kind, derivation_index, address, merchant_id) values
      ('00000000-0000-4000-8000-00000000000a', 'ethereum', 'live', 'PAY_IN', 0, '0xA', '${MERCHANT}'),
      ('00000000-0000-4000-8000-00000000000b', 'bitcoin', 'live', 'PAY_IN', 0, 'bc1b', '${MERCHANT}'),
      ('00000000-0000-4000-8000-00000000000c', 'ethereum', 'test', 'PAY_IN', 0, '0xC', '${MERCHANT}'),
      ('00000000-0000-4000-8000-00000000000d', 'bsc', 'live', 'PAY_IN', 0, '0xD', '${MERCHANT}');
    insert into orders (id, merchant_id, mode, client_order_id, currency, network, amount, tolerance_percent,
                        threshold, address_id, address, lifetime, expires_at)
      values ('${ORDER}', '${MERCHANT}', 'live', 'o', 'USDT', 'ethereum', 5, 0, 5,
              '00000000-0000-4000-8000-00000000000a', '0xA', 1800, now());
  `);
  const transfer = (hash: string, index: number, address: string, network: string, mode: string, currency: string) =>
    pg.query(
      `insert into chain_transfers (network, mode, tx_hash, output_index, address_id, merchant_id, currency, amount, first_seen_at)
       values ($1, $2, $3, $4, $5, $6, $7, 1, now())`,
      [network, mode, hash, index, `00000000-0000-4000-8000-00000000000${address}`, MERCHANT, currency],
    );
  // One transaction paying the order (its log 7th in the block) and an orphan (3rd), with ETH too.
  await transfer(tx(1), 7, 'a', 'ethereum', 'live', 'USDT');
  await transfer(tx(1), 3, 'a', 'ethereum', 'live', 'USDT');
  await transfer(tx(1), 0, 'a', 'ethereum', 'live', 'ETH');
  // The first log of its block: its old key 0 is taken by no native transfer here; it becomes 1.
  await transfer(tx(2), 0, 'd', 'bsc', 'live', 'USDT');
  // Not EVM tokens of live mode: unchanged.
  await transfer(tx(3), 3, 'b', 'bitcoin', 'live', 'BTC');
  await transfer(tx(4), 4, 'c', 'ethereum', 'test', 'USDT');
  await pg.exec(`
    insert into payments (order_id, merchant_id, mode, address_id, network, currency, tx_hash, output_index, address, amount)
      values ('${ORDER}', '${MERCHANT}', 'live', '00000000-0000-4000-8000-00000000000a', 'ethereum', 'USDT', '${tx(1)}', 7, '0xA', 1);
    insert into deposits (merchant_id, mode, kind, network, currency, amount, address_id, address, in_tx_hash, in_output_index)
      values ('${MERCHANT}', 'live', 'ORPHAN', 'ethereum', 'USDT', 1, '00000000-0000-4000-8000-00000000000a', '0xA', '${tx(1)}', 3),
             ('${MERCHANT}', 'live', 'ORPHAN', 'bsc', 'USDT', 1, '00000000-0000-4000-8000-00000000000d', '0xD', '${tx(2)}', 0);
  `);
  await migrate(drizzle(pg), { migrationsFolder: MIGRATIONS_FOLDER });
}, 120_000);

afterAll(async () => {
  await pg?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('migration 0010: EVM token transfers keyed by their position in their transaction', () => {
  it('re-keys the live EVM token transfers from 1, in order; the native transfer and other networks and modes keep theirs', async () => {
    const { rows } = await pg.query<{ tx_hash: string; currency: string; mode: string; output_index: number }>(
      'select tx_hash, currency, mode, output_index from chain_transfers order by tx_hash, output_index',
    );
    expect(rows.map((r) => [r.tx_hash, r.currency, r.mode, r.output_index])).toEqual([
      [tx(1), 'ETH', 'live', 0],
      [tx(1), 'USDT', 'live', 1],
      [tx(1), 'USDT', 'live', 2],
      [tx(2), 'USDT', 'live', 1],
      [tx(3), 'BTC', 'live', 3],
      [tx(4), 'USDT', 'test', 4],
    ]);
  });

  it('payments and deposits follow their transfer', async () => {
    const payments = await pg.query<{ output_index: number }>('select output_index from payments');
    expect(payments.rows).toEqual([{ output_index: 2 }]);
    const deposits = await pg.query<{ in_tx_hash: string; in_output_index: number }>(
      'select in_tx_hash, in_output_index from deposits order by in_tx_hash',
    );
    expect(deposits.rows).toEqual([
      { in_tx_hash: tx(1), in_output_index: 1 },
      { in_tx_hash: tx(2), in_output_index: 1 },
    ]);
  });
});
