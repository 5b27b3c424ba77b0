import { describe, expectTypeOf, it } from 'vitest';
import type { RowOf } from './rows';
import type { chainTransfers, orders } from './schema';

// Checked by the type check (`npm run typecheck`, part of the build): a wrong mapping fails it.
describe('RowOf', () => {
  it('names columns as the database does, with the drivers’ values', () => {
    type Order = RowOf<typeof orders>;
    expectTypeOf<keyof Order>().toEqualTypeOf<
      | 'id'
      | 'merchant_id'
      | 'mode'
      | 'client_order_id'
      | 'currency'
      | 'network'
      | 'amount'
      | 'tolerance_percent'
      | 'threshold'
      | 'received'
      | 'status'
      | 'message'
      | 'address_id'
      | 'address'
      | 'tag'
      | 'external_user_id'
      | 'payer_email'
      | 'description'
      | 'success_webhook'
      | 'error_webhook'
      | 'return_url'
      | 'check_risks'
      | 'lifetime'
      | 'expires_at'
      | 'created_at'
      | 'updated_at'
      | 'invoice_id'
      | 'api_key_id'
      | 'payer_language'
      | 'remainder_of'
    >();
    expectTypeOf<Order['amount']>().toEqualTypeOf<string>(); // NUMERIC as text
    expectTypeOf<Order['tag']>().toEqualTypeOf<string | null>();
    expectTypeOf<Order['expires_at']>().toEqualTypeOf<Date>();
    expectTypeOf<Order['status']>().toEqualTypeOf<
      'pending' | 'processed' | 'overpaid' | 'partial' | 'expired' | 'error'
    >();
    // int8: node-postgres answers text, PGlite a number.
    expectTypeOf<RowOf<typeof chainTransfers>['block_height']>().toEqualTypeOf<string | number | null>();
  });
});
