/**
 * Test mode on Solana: orders get the test wallet (the test seed's m/44'/501'/0'/0') and a fresh
 * Solana Pay reference each; "Simulate payment" pays the wallet under the reference on the sandbox
 * ledger, and the watcher completes the order as on every network. One database is enough: nothing
 * here differs between the two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { simulateOrderPayment } from '@/lib/sandbox';
import { createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let merchant: TestMerchant;
beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterAll(() => db?.close());

describe('Solana in test mode (sandbox ledger)', () => {
  it('a simulated USDC payment under the order reference completes the order', async () => {
    const chain = sandboxChain(db, 'solana');
    await watchOnce(db, chain);
    const order = await createOrder(db, merchant.test, { currency: 'USDC', network: 'solana', amount: '2.5' });
    expect(order.address).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk');
    expect(order.tag).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const { txHash } = await simulateOrderPayment(db, order.id, 'full');
    expect(txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
    await mine(db, network('solana'), 10);
    await watchOnce(db, chain);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '2500000' });
  });
});
