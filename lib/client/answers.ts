/**
 * What the merchant API answers, as zod schemas: the typed client checks every answer against
 * them, so a caller never holds data of the wrong shape. Lenient where another compatible gateway
 * may differ (extra fields are dropped, statuses of payments and deposits are plain strings),
 * strict where a caller's code branches (order status, amounts as decimal strings, timestamps).
 */
import { z } from 'zod';
import { ORDER_STATUS_VALUES } from '../orders/status';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal string');
const timestamp = z.iso.datetime({ offset: true });
const text = z.string().nullable();

export const orderAnswer = z.object({
  status: z.enum(ORDER_STATUS_VALUES),
  link: z.url(),
  amount: decimal,
  paymentTolerancePercent: decimal,
  currency: z.string(),
  network: z.string(),
  address: z.string(),
  addressId: z.string(),
  tag: text,
  orderId: z.string(),
  clientOrderId: z.string(),
  externalUserId: text,
  payerEmail: text,
  description: text,
  successWebhook: text,
  errorWebhook: text,
  returnUrl: text,
  expiresAt: timestamp,
  createdAt: timestamp,
});
export type Order = z.infer<typeof orderAnswer>;

export const orderDetailsAnswer = orderAnswer.extend({
  received: decimal,
  message: text,
  transactions: z.array(
    z.object({
      id: z.string(),
      tx: z.string(),
      amount: decimal,
      currency: z.string(),
      network: z.string(),
      status: z.string(),
      confirmations: z.number().int().nonnegative(),
      createdAt: timestamp,
    }),
  ),
});
export type OrderDetails = z.infer<typeof orderDetailsAnswer>;

export const orderListAnswer = z.object({
  orders: z.array(orderAnswer),
  total: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
});
export type OrderList = z.infer<typeof orderListAnswer>;

export const depositAnswer = z.object({
  id: z.string(),
  organizationId: z.string(),
  orderId: text,
  stage: z.string(),
  status: z.string(),
  message: text,
  currency: z.string(),
  network: z.string(),
  amount: decimal,
  canWithdrawal: z.boolean(),
  inTransaction: z.object({
    addressType: z.string(),
    addressId: z.string(),
    address: z.string(),
    txId: z.string(),
    amount: decimal,
    status: z.string(),
  }),
  outTransactions: z
    .object({
      address: text,
      txId: z.string(),
      amount: decimal,
      status: text,
      feeAmount: decimal,
      feeAmountUSD: decimal.nullable(),
      withdrawalId: text,
      createdAt: timestamp.nullable(),
    })
    .nullable(),
  createdAt: timestamp,
});
export type Deposit = z.infer<typeof depositAnswer>;

const paymentOperation = z.object({
  type: z.literal('IN'),
  source: z.literal('ORDER'),
  address: z.string(),
  result: z.object({
    id: z.string(),
    addressId: z.string(),
    currency: z.string(),
    network: z.string(),
    tx: z.string(),
    status: z.string(),
    address: z.string(),
    tag: text,
    amount: decimal,
    feeCurrency: z.string(),
    feeSource: z.string(),
    feeAmount: decimal,
    createdAt: timestamp,
  }),
});
const depositOperation = z.object({
  type: z.enum(['IN', 'OUT']),
  source: z.enum(['ORPHAN_DEPOSIT', 'PERSONAL_DEPOSIT']),
  address: z.string(),
  result: depositAnswer,
});
export const operationsAnswer = z.array(z.discriminatedUnion('source', [paymentOperation, depositOperation]));
export type Operation = z.infer<typeof operationsAnswer>[number];

export const availableCurrenciesAnswer = z.array(
  z.object({
    currency: z.string(),
    name: z.string(),
    networks: z.array(
      z.object({
        network: z.string(),
        name: z.string(),
        decimals: z.number().int().nonnegative(),
        contract: text,
        confirmations: z.number().int().nonnegative(),
        tagRequired: z.boolean(),
        defaultLifetime: z.number().int().positive(),
      }),
    ),
  }),
);
export type AvailableCurrency = z.infer<typeof availableCurrenciesAnswer>[number];

export const advancedBalancesAnswer = z.array(
  z.object({
    advancedBalanceId: z.string(),
    currency: z.string(),
    balance: decimal,
    availableCurrenciesForDeposit: z.array(z.string()),
  }),
);
export type AdvancedBalance = z.infer<typeof advancedBalancesAnswer>[number];

/** The envelopes around every answer. */
export const successEnvelope = z.object({ success: z.literal(true), response: z.unknown() });
export const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.number().int(),
    name: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).default([]),
  }),
  requestId: z.string().optional(),
});
