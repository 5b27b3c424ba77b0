import type { OrderStatus } from '../protocol';

/** An `orders` row as the drivers answer it (NUMERIC as text, timestamptz as Date). */
export interface OrderRow {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  client_order_id: string;
  currency: string;
  network: string;
  amount: string;
  tolerance_percent: string;
  threshold: string;
  received: string;
  status: OrderStatus;
  message: string | null;
  address_id: string;
  address: string;
  tag: string | null;
  external_user_id: string | null;
  payer_email: string | null;
  description: string | null;
  success_webhook: string | null;
  error_webhook: string | null;
  return_url: string | null;
  check_risks: boolean;
  lifetime: number;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A `payments` row (an incoming transfer credited to an order). */
export interface PaymentRow {
  id: string;
  order_id: string;
  address_id: string;
  network: string;
  currency: string;
  tx_hash: string;
  output_index: number;
  address: string;
  tag: string | null;
  sender_address: string | null;
  amount: string;
  status: 'pending' | 'processed' | 'reversed' | 'rejected';
  confirmations: number;
  fee_amount: string;
  created_at: Date;
}
