import { randomBytes } from 'node:crypto';
import type { Database } from '@/lib/db/client';

/**
 * Rows the chain watcher will write once it exists (a credited payment, an orphan deposit).
 * The API tests use them to check the answers of find-tx and get-deposit field by field.
 */
export function fakeTxHash(): string {
  return randomBytes(32).toString('hex');
}

export async function insertPayment(
  db: Database,
  order: { orderId: string; addressId: string; address: string; tag: string | null; currency: string; network: string },
  values: { merchantId: string; mode: 'test' | 'live'; txHash: string; amount: bigint; status?: string },
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `insert into payments (order_id, merchant_id, mode, address_id, network, currency, tx_hash, output_index, address, tag, amount, status)
     values ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10, $11) returning id`,
    [
      order.orderId,
      values.merchantId,
      values.mode,
      order.addressId,
      order.network,
      order.currency,
      values.txHash,
      order.address,
      order.tag,
      values.amount.toString(),
      values.status ?? 'pending',
    ],
  );
  return row!.id;
}

export async function insertDeposit(
  db: Database,
  order: { orderId: string; addressId: string; address: string; currency: string; network: string },
  values: {
    merchantId: string;
    mode: 'test' | 'live';
    kind?: 'ORPHAN' | 'PERSONAL';
    txHash: string;
    amount: bigint;
    out?: { address: string; txHash: string; amount: bigint; fee: bigint; feeUsdCents: bigint };
    /** When it was recorded (default now): deposits listed newest first need distinct times to have an order. */
    createdAt?: Date;
  },
): Promise<string> {
  const out = values.out;
  const [row] = await db.query<{ id: string }>(
    `insert into deposits (merchant_id, mode, kind, order_id, stage, status, network, currency, amount, address_id, address,
                           in_tx_hash, in_output_index, in_status, out_address, out_tx_hash, out_amount, out_status,
                           out_fee_amount, out_fee_amount_usd_cents, withdrawal_id, out_created_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, 'processed', $13, $14, $15, $16, $17, $18, $19, $20,
             coalesce($21::timestamptz, now())) returning id`,
    [
      values.merchantId,
      values.mode,
      values.kind ?? 'ORPHAN',
      order.orderId,
      out ? 'WITHDRAWAL' : 'DEPOSIT',
      out ? 'PROCESSED' : 'PENDING',
      order.network,
      order.currency,
      values.amount.toString(),
      order.addressId,
      order.address,
      values.txHash,
      out?.address ?? null,
      out?.txHash ?? null,
      out?.amount.toString() ?? null,
      out ? 'processed' : null,
      out?.fee.toString() ?? null,
      out?.feeUsdCents.toString() ?? null,
      out ? crypto.randomUUID() : null,
      out ? new Date() : null,
      values.createdAt ?? null,
    ],
  );
  return row!.id;
}
