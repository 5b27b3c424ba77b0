/**
 * The database schema (PostgreSQL; the same migrations run on PGlite and on node-postgres).
 * Money columns are NUMERIC(78,0) holding base units; timestamps are timestamptz.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  ADDRESS_KIND_VALUES,
  DEPOSIT_KIND_VALUES,
  DEPOSIT_STAGE_VALUES,
  DEPOSIT_STATUS_VALUES,
  INVOICE_STATUS_VALUES,
  MODE_VALUES,
  ORDER_STATUS_VALUES,
  PAYMENT_STATUS_VALUES,
  PLAN_FORMAT_VALUES,
  PLAN_KIND_VALUES,
  PLAN_STATUS_VALUES,
  CLAIM_DELIVERY_VALUES,
  REFUND_APPROVAL_VALUES,
  REFUND_RATE_SOURCE_VALUES,
  REFUND_SOURCE_VALUES,
  REFUND_STATE_VALUES,
  WEBHOOK_KIND_VALUES,
  WEBHOOK_OUTCOME_VALUES,
  WEBHOOK_STATE_VALUES,
  ENDPOINT_STATUS_VALUES,
  SUBSCRIPTION_CANCEL_REASON_VALUES,
  SUBSCRIPTION_INTERVAL_VALUES,
  SUBSCRIPTION_INVOICE_KIND_VALUES,
  SUBSCRIPTION_STATUS_VALUES,
  type KeyScope,
  type OrderStatus,
} from '../protocol';

// Generic in the name, so that row types (lib/db/rows.ts) know each money column by name.
const money = <N extends string>(name: N) => numeric(name, { precision: 78, scale: 0 });
const createdAt = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();
const moment = <N extends string>(name: N) => timestamp(name, { withTimezone: true, precision: 3 });
/** PostgreSQL's 64-bit transaction id (xid8, never wraps): the event feed's commit horizon (table `events`). */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

export const merchants = pgTable('merchants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** The operator's processing fee in percent, booked on the advance balance. */
  feePercent: numeric('fee_percent', { precision: 9, scale: 6 }).notNull().default('0'),
  /** The brand on the payment and invoice pages (dashboard settings): a logo as a data: URL of an image, and a #rrggbb accent. */
  brandLogo: text('brand_logo'),
  brandColor: text('brand_color'),
  /** Block explorer links per network, `{network: "https://.../tx/{tx}"}`; unset networks use the catalog's default. */
  explorerUrls: jsonb('explorer_urls').notNull().default({}),
  /** The point of sale's currency (a fiat code or a coin ticker) and the tips it offers, in whole percent. */
  posCurrency: text('pos_currency').notNull().default('USD'),
  posTips: jsonb('pos_tips').$type<number[]>().notNull().default([10, 15, 20]),
  /** Owners must sign in with a second factor (TOTP). */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  /** The name payers see as the sender of its mail (the address is the gateway's MAIL_FROM); null: the merchant's name. */
  mailSenderName: text('mail_sender_name'),
  /** Where a payer's answer to its mail goes; null: no Reply-To. */
  mailReplyTo: text('mail_reply_to'),
  /** The payer mails (lib/mail PAYER_MAIL_KINDS) this merchant switched off. */
  payerMailOff: text('payer_mail_off')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** Owners and admins get a mail each day with the day before's live orders and amounts (docs/decisions/074); off by default. */
  dailySummary: boolean('daily_summary').notNull().default(false),
  /**
   * The late-payment rule (lib/mispayments, docs/decisions/069): a confirmed payment of an expired or
   * underpaid order's coin that arrived at most this many minutes after its deadline, while the
   * price moved less than `lateAcceptRateMovePercent`, settles the order's mispayment by itself. 0: off.
   */
  lateAcceptMinutes: integer('late_accept_minutes').notNull().default(0),
  lateAcceptRateMovePercent: numeric('late_accept_rate_move_percent', { precision: 9, scale: 6 })
    .notNull()
    .default('0'),
  /**
   * A refund worth more than this (in `refundApprovalCurrency`, at the current rate when it is made)
   * needs a second person's approval before it is sent (docs/decisions/082); null: none does.
   */
  refundApprovalAbove: numeric('refund_approval_above', { precision: 30, scale: 8 }),
  refundApprovalCurrency: text('refund_approval_currency').notNull().default('USD'),
  /**
   * The least excess of an overpaid order its payer may claim, in percent of the order's amount
   * (lib/mispayments, docs/decisions/091); never below the 1 % minimum against dust. Null: the minimum.
   */
  excessClaimPercent: numeric('excess_claim_percent', { precision: 9, scale: 6 }),
  createdAt: createdAt(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    publicKey: text('public_key').notNull().unique(),
    /** The private key, AES-256-GCM encrypted with a key derived from APP_SECRET. */
    secretCiphertext: text('secret_ciphertext').notNull(),
    /** What people call it on the keys page ("Checkout", "Reporting"); empty for keys made before names. */
    name: text('name').notNull().default(''),
    /** What it may do: scopes of lib/protocol/scopes.ts (docs/decisions/048). */
    scopes: text('scopes')
      .array()
      .$type<KeyScope[]>()
      .notNull()
      .default(sql`'{full}'::text[]`),
    /** Who made it: a dashboard user's e-mail, or `cli`; null for keys made before this was kept. */
    createdBy: text('created_by'),
    createdAt: createdAt(),
    revokedAt: moment('revoked_at'),
    /** After this it authenticates nothing: an expiry chosen when it was made, or the end of a roll's overlap. */
    expiresAt: moment('expires_at'),
    /** The last signed request, written at most once a minute per key and process (lib/merchants/usage.ts). */
    lastUsedAt: moment('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    /** The mode's webhook key: signs the webhooks of objects no key made (payment links, renewals, orphans). One per merchant and mode. */
    webhookKey: boolean('webhook_key').notNull().default(false),
    /**
     * The key that signs its objects' webhooks once it no longer does: the key a roll made, or the
     * key a revocation moved them to (docs/decisions/048).
     */
    successorKeyId: uuid('successor_key_id'),
    /** A revoked key still signs its objects' webhooks until then (the revocation's stated hours). */
    signsWebhooksUntil: moment('signs_webhooks_until'),
  },
  (t) => [
    check('api_keys_mode', sql`${t.mode} in ('test', 'live')`),
    uniqueIndex('api_keys_webhook_key')
      .on(t.merchantId, t.mode)
      .where(sql`${t.webhookKey}`),
  ],
);

/** Nonces already used, per key; a (key, nonce) pair is accepted once within the window. */
export const apiNonces = pgTable(
  'api_nonces',
  {
    keyId: uuid('key_id').notNull(),
    nonce: numeric('nonce', { precision: 40, scale: 0 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.nonce] }), index('api_nonces_created_at').on(t.createdAt)],
);

/** The merchant's fee account (seed: advancedBalanceId), one per merchant and mode. */
export const advancedBalances = pgTable(
  'advanced_balances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    currency: text('currency').notNull().default('USD'),
    /** Balance in cents of `currency`. */
    balance: money('balance').notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('advanced_balances_merchant_mode').on(t.merchantId, t.mode)],
);

/** Users of a merchant's own system that have personal addresses (seed: externalUserId). */
export const externalUsers = pgTable(
  'external_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    externalUserId: text('external_user_id').notNull(),
    email: text('email'),
    /** personal-addresses/create-user's clientName and depositWebhookUrl, kept and answered as given. */
    name: text('name'),
    depositWebhookUrl: text('deposit_webhook_url'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('external_users_merchant_user').on(t.merchantId, t.mode, t.externalUserId)],
);

/**
 * Deposit addresses, derived ahead of time into a pool and handed out in derivation order by a
 * sequence per (network, mode) (lib/addresses). A PAY_IN row belongs to the one order that
 * references it; a PERSONAL row (merchant_id, external_user_id, assigned_at set) to one
 * external user on one network.
 * Tag networks share one address and tell deposits apart by `tag`.
 */
export const addresses = pgTable(
  'addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').notNull(),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    kind: text('kind', { enum: ADDRESS_KIND_VALUES }).notNull(),
    /** BIP32 child index under the network's extended public key; for tag networks, a counter. */
    derivationIndex: bigint('derivation_index', { mode: 'number' }).notNull(),
    address: text('address').notNull(),
    tag: text('tag'),
    merchantId: uuid('merchant_id').references(() => merchants.id),
    externalUserId: uuid('external_user_id').references(() => externalUsers.id),
    assignedAt: timestamp('assigned_at', { withTimezone: true, precision: 3 }),
    /**
     * The key the address comes from (lib/addresses `poolKeyFingerprint`): the extended public key
     * with its address encoding, or a tag network's receiving account. Orders take only addresses
     * of the key configured now; a pool's unissued addresses of another key are dropped when it is
     * filled (docs/decisions/047). Null for addresses written before keys were fingerprinted.
     */
    keyFingerprint: text('key_fingerprint'),
    createdAt: createdAt(),
  },
  (t) => [
    // Positions are per key: a merchant's own key starts its pool at index 0 (docs/decisions/083).
    uniqueIndex('addresses_derivation').on(t.network, t.mode, t.keyFingerprint, t.derivationIndex),
    uniqueIndex('addresses_destination').on(t.network, t.mode, t.address, sql`coalesce(${t.tag}, '')`),
    uniqueIndex('addresses_personal')
      .on(t.merchantId, t.mode, t.externalUserId, t.network)
      .where(sql`${t.kind} = 'PERSONAL'`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    /** The public order id (a random UUID: it appears in the payment link). */
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    clientOrderId: text('client_order_id').notNull(),
    currency: text('currency').notNull(),
    network: text('network').notNull(),
    amount: money('amount').notNull(),
    /** Tolerance in percent as given (canonical decimal string). */
    tolerancePercent: numeric('tolerance_percent', { precision: 9, scale: 6 }).notNull(),
    /** amount x (1 - tolerance/100), rounded up: the least that completes the order. */
    threshold: money('threshold').notNull(),
    received: money('received').notNull().default('0'),
    status: text('status', { enum: ORDER_STATUS_VALUES }).notNull().default('pending'),
    message: text('message'),
    addressId: uuid('address_id')
      .notNull()
      .references(() => addresses.id),
    address: text('address').notNull(),
    tag: text('tag'),
    externalUserId: text('external_user_id'),
    payerEmail: text('payer_email'),
    description: text('description'),
    successWebhook: text('success_webhook'),
    errorWebhook: text('error_webhook'),
    returnUrl: text('return_url'),
    checkRisks: boolean('check_risks').notNull().default(false),
    lifetime: integer('lifetime').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The invoice whose payer chose this order's coin (lib/invoices); null for an order made by make-order. */
    invoiceId: uuid('invoice_id'),
    /** The key whose make-order made it: it signs the order's webhooks (docs/decisions/048); null for an order the gateway made. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id),
    /** The language of the payment page the payer last saw (lib/pay LANGUAGES): their mail is written in it. */
    payerLanguage: text('payer_language'),
    /** The underpaid (or paid-late) order whose rest this order asks for (lib/mispayments); null for any other order. */
    remainderOf: uuid('remainder_of').references((): AnyPgColumn => orders.id),
  },
  (t) => [
    uniqueIndex('orders_client_order').on(t.merchantId, t.mode, t.clientOrderId),
    // One remainder per original: two payers opening "pay the rest" at once make one order (docs/decisions/069).
    uniqueIndex('orders_remainder_of').on(t.remainderOf),
    // The dashboard's keyset pages (created_at desc, id desc) and the API's listing, date ranges included (migration 0007).
    index('orders_merchant_created').on(
      t.merchantId,
      t.mode,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // A status filter (a rare status would otherwise read most of the merchant's orders) and the overview's counts by status.
    index('orders_merchant_status').on(
      t.merchantId,
      t.mode,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Network and coin filters: without them a network or coin the merchant has few (or no) orders
    // of reads every order of the scope (bench:dashboard, 40 ms at 100,000 orders, growing with them).
    index('orders_merchant_network').on(
      t.merchantId,
      t.mode,
      t.network,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('orders_merchant_currency').on(
      t.merchantId,
      t.mode,
      t.currency,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('orders_pending_expiry')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    index('orders_address').on(t.addressId),
    // The receiving wallets open orders were issued to, read wallet by wallet (a skip scan): a
    // Solana wallet a merchant replaced is read until its last open order ends (decision 100).
    index('orders_pending_destination')
      .on(t.network, t.mode, t.address)
      .where(sql`${t.status} = 'pending'`),
    // An invoice follows every order its choices made (lib/invoices).
    index('orders_invoice')
      .on(t.invoiceId)
      .where(sql`${t.invoiceId} is not null`),
  ],
);

/**
 * Payment links (lib/links): a public page that sells one thing at a fiat price (or an amount the
 * payer chooses within bounds). A visit counts a view and makes nothing; the payer's "continue"
 * makes an invoice (invoices.link_id), and only a coin choice on it takes an address.
 */
export const paymentLinks = pgTable(
  'payment_links',
  {
    /** The public link id (a random UUID: it appears in the link). */
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    title: text('title').notNull(),
    description: text('description'),
    /** A data: URL of a PNG, JPEG, GIF or WebP image, checked by its bytes (the pages' CSP allows `img-src data:`). */
    image: text('image'),
    /** The price currency, upper-case: a fiat code or a catalog ticker. */
    currency: text('currency').notNull(),
    priceDecimals: integer('price_decimals').notNull(),
    /** The price in base units of `currency`; null when the payer chooses the amount. */
    amount: money('amount'),
    /** The bounds of an amount the payer chooses (base units of `currency`); null with a fixed price. */
    minAmount: money('min_amount'),
    maxAmount: money('max_amount'),
    /** The most a payer may buy at once; null: one, no quantity asked. */
    maxQuantity: integer('max_quantity'),
    /** What the payer may choose from, as make-invoice's `currencies`; null: every enabled coin. */
    currencies: jsonb('currencies').$type<{ currency: string; networks?: string[] }[]>(),
    webhookUrl: text('webhook_url'),
    returnUrl: text('return_url'),
    /** After this, the link makes no invoice; null: never. */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
    /** The most paid invoices the link takes; null: no limit. */
    maxUses: integer('max_uses'),
    /** Visits of the link's page. */
    views: bigint('views', { mode: 'number' }).notNull().default(0),
    /** A disabled link makes no invoice (its page says so); its invoices run on. */
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check('payment_links_mode', sql`${t.mode} in ('test', 'live')`),
    index('payment_links_merchant_created').on(t.merchantId, t.mode, t.createdAt.desc(), t.id.desc()),
    check(
      'payment_links_price',
      sql`(${t.amount} is not null and ${t.minAmount} is null and ${t.maxAmount} is null)
        or (${t.amount} is null and ${t.minAmount} is not null and ${t.maxAmount} is not null and ${t.minAmount} <= ${t.maxAmount})`,
    ),
  ],
);

/**
 * Fiat-priced invoices (lib/invoices): a price in `currency` that the payer pays in a coin of the
 * offered list, chosen on the invoice page. Choosing makes an order at a rate locked then (or
 * reuses the coin's order while it runs); the invoice's status follows every order it made.
 */
export const invoices = pgTable(
  'invoices',
  {
    /** The public invoice id (a random UUID: it appears in the invoice link). */
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    advancedBalanceId: uuid('advanced_balance_id').notNull(),
    externalId: text('external_id'),
    clientOrder: text('client_order'),
    /** externalId, else `order`: a second make-invoice with the same key answers this invoice. */
    idempotencyKey: text('idempotency_key'),
    /** The price currency, upper-case: a fiat code or a catalog ticker. */
    currency: text('currency').notNull(),
    /** The price in base units of `currency` (`price_decimals` fractional digits). */
    amount: money('amount').notNull(),
    priceDecimals: integer('price_decimals').notNull(),
    description: text('description'),
    /**
     * The invoice's lines as its maker gave them (make-invoice `items`, a payment link's title and
     * quantity, a sale and its tip): [{name, quantity, unitPrice}], `unitPrice` in base units of
     * `currency` as a decimal string; their total is `amount`. Null when none were given.
     */
    items: jsonb('items').$type<{ name: string; quantity: number; unitPrice: string }[]>(),
    includeFee: boolean('include_fee').notNull().default(false),
    additionalFees: jsonb('additional_fees').$type<string[]>(),
    insurancePercent: numeric('insurance_percent', { precision: 9, scale: 6 }),
    slippagePercent: numeric('slippage_percent', { precision: 9, scale: 6 }),
    webhookUrl: text('webhook_url'),
    returnUrl: text('return_url'),
    /** Minutes, as given. */
    lifetime: integer('lifetime').notNull(),
    /** What the payer may choose, with the amounts of the quote: [{currency, networks: [{name, amount}]}]. */
    currencies: jsonb('currencies').notNull(),
    /** The rate of each offered coin at the quote (price of one coin in `currency`), for slippagePercent. */
    quoteRates: jsonb('quote_rates').$type<Record<string, string>>().notNull(),
    status: text('status', { enum: INVOICE_STATUS_VALUES }).notNull().default('CREATED'),
    /**
     * The order the invoice answers with: its latest coin choice, or once decided the order that
     * decided it (lib/invoices/lifecycle.ts); null until the payer chooses.
     */
    orderId: uuid('order_id').references(() => orders.id),
    /** The rate that order was made at: price of one of its coin in `currency`. */
    rate: text('rate'),
    /** The rate each order of the invoice was made at, by order id (the invoice follows them all). */
    orderRates: jsonb('order_rates').$type<Record<string, string>>().notNull().default({}),
    /** How many orders its choices made, at most MAX_INVOICE_ORDERS: the nth is `invoice:<id>:<n>`. */
    choices: integer('choices').notNull().default(0),
    /** The key whose make-invoice made it: it signs the invoice's webhook; null for an invoice no key made. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id),
    /** The payment link whose payer made this invoice (lib/links); null for make-invoice's. */
    linkId: uuid('link_id').references(() => paymentLinks.id),
    /** The dashboard user whose point-of-sale sale this invoice is (lib/links/pos.ts); null otherwise. */
    soldBy: uuid('sold_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_idempotency').on(t.merchantId, t.mode, t.idempotencyKey),
    index('invoices_merchant_created').on(
      t.merchantId,
      t.mode,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('invoices_merchant_status').on(
      t.merchantId,
      t.mode,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Dashboard search by the merchant's order (external ids are found through invoices_idempotency).
    index('invoices_client_order').on(t.merchantId, t.mode, t.clientOrder),
    index('invoices_order').on(t.orderId),
    // A cashier's sales of the day (lib/links/pos.ts).
    index('invoices_sold_by')
      .on(t.soldBy, t.createdAt.desc())
      .where(sql`${t.soldBy} is not null`),
    // A link's counts (lib/links) and its invoices in the dashboard.
    index('invoices_link')
      .on(t.linkId, t.status)
      .where(sql`${t.linkId} is not null`),
    index('invoices_open_expiry')
      .on(t.expiresAt)
      .where(sql`${t.status} in ('CREATED', 'INIT')`),
  ],
);

/**
 * Incoming transfers credited to an order (find-tx source ORDER). Unique per chain transfer
 * (network, tx, output index or token log position: lib/chains/adapter.ts ChainTransfer), which
 * makes crediting idempotent.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    addressId: uuid('address_id')
      .notNull()
      .references(() => addresses.id),
    network: text('network').notNull(),
    currency: text('currency').notNull(),
    txHash: text('tx_hash').notNull(),
    outputIndex: integer('output_index').notNull(),
    address: text('address').notNull(),
    tag: text('tag'),
    senderAddress: text('sender_address'),
    amount: money('amount').notNull(),
    /** pending until confirmed, then processed; reversed when a counted payment was dropped. */
    status: text('status', { enum: PAYMENT_STATUS_VALUES }).notNull().default('pending'),
    confirmations: integer('confirmations').notNull().default(0),
    feeAmount: money('fee_amount').notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_transfer').on(t.network, t.mode, t.txHash, t.outputIndex),
    index('payments_tx').on(sql`lower(${t.txHash})`),
    index('payments_order').on(t.orderId),
    // The overview's received value per coin and day: an index-only range of the counted payments.
    // (Drizzle has no INCLUDE: the summed columns are trailing keys.)
    index('payments_merchant_counted')
      .on(t.merchantId, t.mode, t.createdAt, t.network, t.currency, t.amount)
      .where(sql`${t.status} = 'processed'`),
  ],
);

/**
 * Transfers that do not count for an order (orphan deposits) or that reached a personal address
 * (personal deposits), with the outgoing transfer later observed from the same address.
 */
export const deposits = pgTable(
  'deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    kind: text('kind', { enum: DEPOSIT_KIND_VALUES }).notNull(),
    orderId: uuid('order_id').references(() => orders.id),
    stage: text('stage', { enum: DEPOSIT_STAGE_VALUES }).notNull().default('DEPOSIT'),
    status: text('status', { enum: DEPOSIT_STATUS_VALUES }).notNull().default('PENDING'),
    message: text('message'),
    network: text('network').notNull(),
    currency: text('currency').notNull(),
    amount: money('amount').notNull(),
    addressId: uuid('address_id')
      .notNull()
      .references(() => addresses.id),
    address: text('address').notNull(),
    tag: text('tag'),
    inTxHash: text('in_tx_hash').notNull(),
    inOutputIndex: integer('in_output_index').notNull(),
    inStatus: text('in_status').notNull().default('pending'),
    confirmations: integer('confirmations').notNull().default(0),
    feeAmount: money('fee_amount').notNull().default('0'),
    outAddress: text('out_address'),
    outTxHash: text('out_tx_hash'),
    outAmount: money('out_amount'),
    outStatus: text('out_status'),
    outFeeAmount: money('out_fee_amount'),
    /** Network fee of the outgoing transfer in US cents, when a rate was known. */
    outFeeAmountUsdCents: money('out_fee_amount_usd_cents'),
    withdrawalId: uuid('withdrawal_id'),
    outCreatedAt: timestamp('out_created_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('deposits_transfer').on(t.network, t.mode, t.inTxHash, t.inOutputIndex),
    index('deposits_in_tx').on(sql`lower(${t.inTxHash})`),
    index('deposits_out_tx').on(sql`lower(${t.outTxHash})`),
    index('deposits_merchant').on(t.merchantId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // An order's orphan deposits: the orders list flags a page's late payments, the API lists them by orderId.
    index('deposits_order')
      .on(t.orderId)
      .where(sql`${t.orderId} is not null`),
  ],
);

/**
 * Every transfer a watcher matched to a deposit address (incoming) as it last saw it: the input of
 * the order state machine (lib/orders/lifecycle). Unique per chain transfer, so seeing a block
 * twice (a retry, a restart, a second worker) changes nothing. `payments` and `deposits` are the
 * merchant-facing view of these rows, rewritten from each evaluation.
 */
export const chainTransfers = pgTable(
  'chain_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').notNull(),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    txHash: text('tx_hash').notNull(),
    outputIndex: integer('output_index').notNull(),
    addressId: uuid('address_id')
      .notNull()
      .references(() => addresses.id),
    /** The order the transfer was paid towards; null for a personal address without a pending order. */
    orderId: uuid('order_id').references(() => orders.id),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    currency: text('currency').notNull(),
    amount: money('amount').notNull(),
    sender: text('sender'),
    /**
     * The destination tag the transfer carried (tag networks); null without one, and on every other
     * network. It may name no order: a payment under an unknown tag is an orphan deposit of the
     * account (docs/decisions/034), and this is how the merchant sees which tag the payer used.
     */
    tag: text('tag'),
    /** Null while in the mempool (or after a reorg removed its block). */
    blockHeight: bigint('block_height', { mode: 'number' }),
    /** When the chain first had it: mempool entry or block time, whichever came first. */
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, precision: 3 }).notNull(),
    dropped: boolean('dropped').notNull().default(false),
    /**
     * UTXO: the outputs its transaction spends (`txid:vout`). A replacement (a fee bump) of an
     * earlier transfer to the same order and address spends some of the same, and keeps its first
     * sighting (lib/watcher/transfers.ts). Null elsewhere.
     */
    spentOutpoints: text('spent_outpoints').array(),
    /** What the evaluation that made its order final decided for it; it stays so afterwards. */
    settledRole: text('settled_role', { enum: ['counted', 'rejected'] }),
    /**
     * The hash of the block it is in: a collection asks the node for the previous transaction in
     * that block (`getrawtransaction txid false blockhash`), which needs no `-txindex`.
     */
    blockHash: text('block_hash'),
    /** UTXO: the transaction that spent this output, once a scanned block holds one (lib/watcher withdrawals). */
    spentByTx: text('spent_by_tx'),
    spentAtHeight: bigint('spent_at_height', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chain_transfers_transfer').on(t.network, t.mode, t.txHash, t.outputIndex),
    index('chain_transfers_order').on(t.orderId),
    // Transfers still gaining confirmations: re-evaluated on each new block.
    index('chain_transfers_unsettled')
      .on(t.network, t.mode, t.blockHeight)
      .where(sql`${t.dropped} = false`),
    // Funds and collections: a merchant's outputs not spent yet (lib/payouts).
    index('chain_transfers_unspent')
      .on(t.merchantId, t.mode, t.network)
      .where(sql`${t.spentByTx} is null and ${t.dropped} = false`),
  ],
);

/**
 * What a transaction spent of a recorded transfer in without spending it whole (docs/decisions/122):
 * a Tron plan's `transfer` that burned only part of the TRX its `fund` step sent the address. The
 * Funds line counts the transfer's amount less these; a whole spend stays `spent_by_tx`. One per
 * transfer and spending transaction; a reorganisation below `spent_at_height` deletes it, as it
 * undoes a whole spend.
 */
export const partialSpends = pgTable(
  'partial_spends',
  {
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => chainTransfers.id),
    txHash: text('tx_hash').notNull(),
    /** Base units of the transfer's currency that the transaction spent, less than the transfer's amount. */
    amount: money('amount').notNull(),
    spentAtHeight: bigint('spent_at_height', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.transferId, t.txHash] })],
);

/**
 * A merchant's own deposit key per network and mode (docs/decisions/083): on Bitcoin-family
 * networks an output descriptor with its key origin (`wpkh([fingerprint/84h/2h/0h]xpub.../0/*)`),
 * on a tag network its receiving account. Public, not secret; set by an owner with a fresh second
 * factor, audited. Without one the merchant's deposits come from the gateway-wide `<NETWORK>_XPUB`.
 * `key_fingerprint` is the pool fingerprint of the key (lib/addresses `poolKeyFingerprint`): its
 * pool's addresses carry it, and no two merchants hold one key.
 */
export const depositKeys = pgTable(
  'deposit_keys',
  {
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    network: text('network').notNull(),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    /** The descriptor in canonical form with its checksum, or the tag network's account. */
    key: text('key').notNull(),
    keyFingerprint: text('key_fingerprint').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.network, t.mode] }),
    uniqueIndex('deposit_keys_fingerprint').on(t.network, t.mode, t.keyFingerprint),
  ],
);

/**
 * The merchant's treasury per network and mode (lib/payouts): where collections go. Set by an
 * owner with a fresh second factor, audited; the signer pins its own copy and signs nothing else.
 */
export const treasuries = pgTable(
  'treasuries',
  {
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    network: text('network').notNull(),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.network, t.mode] })],
);

/**
 * The account of the merchant's seed that pays an account chain's collection fees, per network and
 * mode (docs/decisions/099): the gas payer on EVM, the resource account holding staked TRX on Tron.
 * Its address and derivation path only, never a key; read by a prepare that does not name one.
 */
export const feePayers = pgTable(
  'fee_payers',
  {
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    network: text('network').notNull(),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    address: text('address').notNull(),
    path: text('path').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.network, t.mode] })],
);

/**
 * Collection plans (lib/payouts): one transaction that moves a network's deposit outputs to the
 * treasury, prepared by the gateway, signed by the merchant's signer, confirmed by the watcher.
 */
export const collectionPlans = pgTable(
  'collection_plans',
  {
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    network: text('network').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: PLAN_STATUS_VALUES }).notNull().default('prepared'),
    /** `collection`: every output to the treasury; `refund`: one refund's payment to the payer, the change to the treasury. */
    kind: text('kind', { enum: PLAN_KIND_VALUES }).notNull().default('collection'),
    /** The refund a refund plan pays (docs/decisions/081). */
    refundId: uuid('refund_id').references((): AnyPgColumn => refunds.id),
    /** A refund plan's refund as the signer is shown it, fixed when prepared (lib/protocol `planRefundSchema`). */
    refund: jsonb('refund'),
    treasury: text('treasury').notNull(),
    /** `psbt`: one Bitcoin-family transaction; `evm`, `tron`: an account chain's transactions, in `body` (docs/decisions/093). */
    format: text('format', { enum: PLAN_FORMAT_VALUES }).notNull().default('psbt'),
    /** The master fingerprint of a PSBT plan's key; null for account-chain plans (their paths are in `body`). */
    masterFingerprint: text('master_fingerprint'),
    /** Base units per virtual byte (psbt); the fee cap per gas in wei (evm); sun per energy (tron). */
    feeRate: money('fee_rate').notNull(),
    total: money('total').notNull(),
    fee: money('fee').notNull(),
    sent: money('sent').notNull(),
    /** The unsigned PSBT, base64 (psbt plans only). */
    psbt: text('psbt'),
    /** An EVM or Tron plan as the signer reads it (lib/protocol evm-plans.ts, plans.ts), fixed when prepared. */
    body: jsonb('body'),
    /** The transaction's id: known when prepared for segwit inputs (signatures are not part of it). */
    txid: text('txid'),
    reason: text('reason'),
    /** When the network's node (the sandbox in test mode) first held its transaction unmined: submitted, or seen in the mempool. */
    acceptedAt: timestamp('accepted_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('collection_plans_merchant').on(t.merchantId, t.mode, t.createdAt.desc().nullsFirst()),
    index('collection_plans_open')
      .on(t.network, t.mode)
      .where(sql`${t.status} in ('prepared', 'broadcast')`),
    check('collection_plans_amounts', sql`${t.sent} + ${t.fee} = ${t.total} and ${t.fee} >= 0 and ${t.sent} > 0`),
    check(
      'collection_plans_format',
      sql`(${t.format} = 'psbt') = (${t.psbt} is not null and ${t.masterFingerprint} is not null and ${t.body} is null)`,
    ),
    check(
      'collection_plans_refund',
      sql`(${t.kind} = 'refund') = (${t.refundId} is not null and ${t.refund} is not null)`,
    ),
    /** A refund is paid by at most one open plan: it is never sent twice at once. */
    uniqueIndex('collection_plans_refund_open')
      .on(t.refundId)
      .where(sql`${t.status} in ('prepared', 'broadcast')`),
  ],
);

/**
 * The outputs a plan spends. An output is in at most one open plan (the partial unique index):
 * a second plan never spends what the first may still spend, so nothing is planned twice.
 */
export const collectionPlanInputs = pgTable(
  'collection_plan_inputs',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => collectionPlans.id),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => chainTransfers.id),
    /** True while the plan is prepared or broadcast. */
    open: boolean('open').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.transferId] }),
    uniqueIndex('collection_plan_inputs_open')
      .on(t.transferId)
      .where(sql`${t.open}`),
  ],
);

/**
 * What each payment received and what its refunds hold (lib/refunds, docs/decisions/071): one row
 * per order or orphan deposit refunded at least once. A refund adds its amount to `refunded` in
 * the transaction that makes it, a canceled or failed one takes it back; the CHECK holds the sum
 * to what was received, and the row lock of that update makes a second, concurrent refund wait
 * and then see the first one's sum, on PostgreSQL and on PGlite alike.
 */
export const refundBalances = pgTable(
  'refund_balances',
  {
    sourceKind: text('source_kind', { enum: REFUND_SOURCE_VALUES }).notNull(),
    /** The order's or the deposit's id. */
    sourceId: uuid('source_id').notNull(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    /** What the order's counted payments (or the deposit) received, base units of the coin. */
    received: money('received').notNull(),
    /** The amounts of its refunds that are not canceled or failed. */
    refunded: money('refunded').notNull().default('0'),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sourceKind, t.sourceId] }),
    check('refund_balances_within_received', sql`${t.refunded} >= 0 and ${t.refunded} <= ${t.received}`),
  ],
);

/**
 * Refunds (lib/refunds): money paid back to a payer by the merchant's own key, to the address the
 * payer confirmed through a claim link. Never changes the order it refunds.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    sourceKind: text('source_kind', { enum: REFUND_SOURCE_VALUES }).notNull(),
    sourceId: uuid('source_id').notNull(),
    orderId: uuid('order_id').references(() => orders.id),
    invoiceId: uuid('invoice_id').references(() => invoices.id),
    depositId: uuid('deposit_id').references(() => deposits.id),
    network: text('network').notNull(),
    currency: text('currency').notNull(),
    amount: money('amount').notNull(),
    /**
     * A refund priced in fiat: the price as given (canonical decimal string), its currency, the rate
     * that made `amount` (price of one coin, decimal string) and which rate it was. Null for one
     * given in the coin.
     */
    priceAmount: text('price_amount'),
    priceCurrency: text('price_currency'),
    priceRate: text('price_rate'),
    priceRateSource: text('price_rate_source', { enum: REFUND_RATE_SOURCE_VALUES }),
    state: text('state', { enum: REFUND_STATE_VALUES }).notNull().default('awaiting_address'),
    /** Counts the refund's changes: each event's dedupe key carries it (a claim may be reopened, then confirmed again). */
    version: integer('version').notNull().default(1),
    /** SHA-256 (hex) of the claim link's token; the token itself is never stored. */
    claimTokenHash: text('claim_token_hash').notNull(),
    claimExpiresAt: timestamp('claim_expires_at', { withTimezone: true, precision: 3 }).notNull(),
    claimDelivery: text('claim_delivery', { enum: CLAIM_DELIVERY_VALUES }).notNull(),
    /** The address and tag the payer confirmed; null while awaiting it. */
    address: text('address'),
    tag: text('tag'),
    addressConfirmedAt: timestamp('address_confirmed_at', { withTimezone: true, precision: 3 }),
    /** The transaction that pays it: its plan's, or one the merchant sent by hand and entered (docs/decisions/092). */
    txid: text('txid'),
    /**
     * A refund sent by hand: its transaction was entered and verified on chain, not moved by a
     * plan; the watcher re-checks it until confirmed (docs/decisions/092).
     */
    sentByHand: boolean('sent_by_hand').notNull().default(false),
    /** The block the entered transaction was found in (the Bitcoin family finds it there again without -txindex). */
    txBlockHash: text('tx_block_hash'),
    /**
     * A refund sent by hand whose transaction the watcher's re-check last found missing (unknown to
     * the node, or no longer paying): since when; null while it is found (docs/decisions/129).
     */
    missingSince: timestamp('missing_since', { withTimezone: true, precision: 3 }),
    reason: text('reason'),
    /** The network fee is taken from the refund when it is sent: always for one the payer started (docs/decisions/082). */
    feeFromRefund: boolean('fee_from_refund').notNull().default(false),
    /** `required` until a second person approves it (`approved`); `none` below the owner's threshold (docs/decisions/082). */
    approval: text('approval', { enum: REFUND_APPROVAL_VALUES }).notNull().default('none'),
    approvedBy: uuid('approved_by').references((): AnyPgColumn => users.id),
    approvedAt: timestamp('approved_at', { withTimezone: true, precision: 3 }),
    /** Who made it: `api:<key id>` or `user:<user id>`. */
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refunds_claim_token').on(t.claimTokenHash),
    index('refunds_merchant_created').on(
      t.merchantId,
      t.mode,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('refunds_source').on(t.sourceKind, t.sourceId),
    // One transaction pays one refund: an id entered by hand cannot complete a second (docs/decisions/092).
    uniqueIndex('refunds_txid')
      .on(t.network, t.mode, t.txid)
      .where(sql`${t.txid} is not null`),
    // The watcher's re-check of refunds sent by hand, each pass of each network: the few waiting.
    index('refunds_sent_by_hand')
      .on(t.network, t.mode)
      .where(sql`${t.state} = 'sent' and ${t.sentByHand}`),
    index('refunds_order')
      .on(t.orderId)
      .where(sql`${t.orderId} is not null`),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
    check(
      'refunds_address_when_ready',
      sql`${t.state} = 'awaiting_address' or ${t.state} = 'canceled' or ${t.address} is not null`,
    ),
  ],
);

/** Where each network's watcher has scanned to, per mode: it resumes from here after a crash. */
export const chainCursors = pgTable(
  'chain_cursors',
  {
    network: text('network').notNull(),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    /** The last block scanned and committed. */
    height: bigint('height', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
    blockTime: timestamp('block_time', { withTimezone: true, precision: 3 }).notNull(),
    /**
     * The chain time orders are judged by at this cursor (lib/watcher/chain-time.ts): block times
     * as they go forward, never back, never far ahead of the gateway's clock.
     */
    chainTime: timestamp('chain_time', { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.network, t.mode] })],
);

/** Hashes of the recent blocks a watcher scanned, to find the fork point of a reorganisation. */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    network: text('network').notNull(),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    height: bigint('height', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.mode, t.height] })],
);

/** Every status change of an order, written in the transaction that makes it. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    fromStatus: text('from_status', { enum: ORDER_STATUS_VALUES }).notNull(),
    toStatus: text('to_status', { enum: ORDER_STATUS_VALUES }).notNull(),
    message: text('message'),
    createdAt: createdAt(),
  },
  // An order leaves `pending` once; a second final status would be a double decision.
  (t) => [uniqueIndex('order_events_once').on(t.orderId)],
);

/**
 * How a final order's mispayment was settled (lib/mispayments, docs/decisions/069): the order keeps
 * its status (a final status never changes); this row, written once per order (its key), says what
 * settled it, in the transaction that records its `order.resolved` event.
 */
export const orderResolutions = pgTable('order_resolutions', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id),
  merchantId: uuid('merchant_id')
    .notNull()
    .references(() => merchants.id),
  mode: text('mode', { enum: MODE_VALUES }).notNull(),
  /** `remainder_paid`: its remainder order was paid; `accepted`: the merchant's rule or the merchant took what arrived (late payments included) as settling it; `left`: the merchant left it as it is; `refunded`: the merchant refunded what arrived (docs/decisions/091). */
  kind: text('kind', { enum: ['remainder_paid', 'accepted', 'left', 'refunded'] }).notNull(),
  /** `rule` (the merchant's late-payment rule), `payer` (paid the rest) or `merchant` (a dashboard decision). */
  decidedBy: text('decided_by', { enum: ['rule', 'payer', 'merchant'] }).notNull(),
  /** The dashboard user who decided, for `merchant`. */
  userId: uuid('user_id'),
  remainderOrderId: uuid('remainder_order_id').references(() => orders.id),
  /** What the order's address and its remainder's received in the order's coin, base units. */
  totalReceived: money('total_received').notNull(),
  createdAt: createdAt(),
});

/**
 * The overview's orders by status, one row per merchant, mode and past UTC day of creation, written
 * once that day has no pending order left (lib/dashboard/order-days.ts): every order of it is then
 * final, and a final status never changes, so the row stays true. The overview sums these rows and
 * counts only today's orders (and a past day's with an order still pending), instead of every order
 * of the last 30 days (docs/decisions/056).
 */
export const orderDayCounts = pgTable(
  'order_day_counts',
  {
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    /** Midnight UTC of the day the orders were created. */
    day: timestamp('day', { withTimezone: true, precision: 3 }).notNull(),
    /** Orders created that day, by status: `{"processed": 12, "expired": 3}` (absent statuses: none). */
    counts: jsonb('counts').$type<Partial<Record<OrderStatus, number>>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.mode, t.day] })],
);

/**
 * The sandbox ledger of test mode: a simulated chain per network with blocks and transfers in the
 * network's real formats. Payments of test mode enter here, never by writing order rows.
 */
export const sandboxBlocks = pgTable(
  'sandbox_blocks',
  {
    network: text('network').notNull(),
    height: bigint('height', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
    parentHash: text('parent_hash').notNull(),
    minedAt: timestamp('mined_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.height] })],
);

export const sandboxTransfers = pgTable(
  'sandbox_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').notNull(),
    txHash: text('tx_hash').notNull(),
    outputIndex: integer('output_index').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    tag: text('tag'),
    currency: text('currency').notNull(),
    amount: money('amount').notNull(),
    /** Null while in the mempool. */
    blockHeight: bigint('block_height', { mode: 'number' }),
    broadcastAt: timestamp('broadcast_at', { withTimezone: true, precision: 3 }).notNull(),
    /** Set when the transfer was dropped (its block replaced by a reorganisation). */
    droppedAt: timestamp('dropped_at', { withTimezone: true, precision: 3 }),
    /**
     * Bitcoin family: the sandbox transaction that spends this output (a signed plan taken by the
     * sandbox, docs/decisions/097); null while unspent. Cleared when that transaction is dropped.
     */
    spentByTx: text('spent_by_tx'),
  },
  (t) => [
    uniqueIndex('sandbox_transfers_transfer').on(t.network, t.txHash, t.outputIndex),
    index('sandbox_transfers_block').on(t.network, t.blockHeight),
  ],
);

/**
 * Bitcoin family: the serialized form of each sandbox transaction (docs/decisions/097): a payment
 * minted from the faucet, or a signed plan the sandbox took. Its txid is its hash, so a plan can
 * carry it as the previous transaction the signer checks.
 */
export const sandboxTransactions = pgTable(
  'sandbox_transactions',
  {
    network: text('network').notNull(),
    txHash: text('tx_hash').notNull(),
    /** The transaction as a node would relay it, hex. */
    raw: text('raw').notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.txHash] })],
);

/**
 * The event log (lib/events, docs/decisions/050): every change a merchant may care about, with the
 * object as its read operation answered it then. Webhooks (per object and per endpoint) and
 * `events/list` read it. Written in the transaction of the change it records.
 *
 * The feed's order is (`tx_id`, `position`): the writing transaction's id, then the order of
 * writing within it. A reader hands out only events of transactions older than the oldest one
 * still running (`tx_id` < the snapshot's xmin), so no event can commit later before a cursor
 * already handed out, whatever the number of writers.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    /** By default, not always: an import renumbers it (lib/db/transfer.ts). */
    position: bigint('position', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
    txId: xid8('tx_id')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    /** A type of lib/protocol/events.ts. */
    type: text('type').notNull(),
    /** The order, invoice or deposit it carries. */
    objectId: uuid('object_id').notNull(),
    /** One event per change: `<type>:<object id>` (`order.paid_late:<deposit id>` for a late payment). */
    dedupeKey: text('dedupe_key').notNull(),
    /** The object as its read operation answered it when the event happened (JSON text). */
    data: text('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('events_dedupe').on(t.dedupeKey),
    index('events_feed').on(t.merchantId, t.mode, t.txId, t.position),
    index('events_created').on(t.createdAt),
  ],
);

/**
 * Webhook endpoints a merchant configured (lib/webhooks, docs/decisions/050): a URL that receives
 * the events of the types it names, signed with a secret of its own. Deleting one keeps its row
 * (`deleted_at`): its delivery log stays readable.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types of lib/protocol/events.ts, or `*` for every type. */
    eventTypes: text('event_types').array().notNull(),
    status: text('status', { enum: ENDPOINT_STATUS_VALUES }).notNull().default('enabled'),
    disabledReason: text('disabled_reason'),
    /** The first failed attempt since the last delivered one; past WEBHOOK_ENDPOINT_DISABLE_DAYS the endpoint is disabled. */
    failingSince: moment('failing_since'),
    /** The signing secret, AES-256-GCM encrypted with a key derived from APP_SECRET (as API keys). */
    secretCiphertext: text('secret_ciphertext').notNull(),
    /** The secret before the last roll, which signs beside the new one until `previous_secret_expires_at`. */
    previousSecretCiphertext: text('previous_secret_ciphertext'),
    previousSecretExpiresAt: moment('previous_secret_expires_at'),
    createdAt: createdAt(),
    updatedAt: moment('updated_at').notNull().defaultNow(),
    deletedAt: moment('deleted_at'),
  },
  (t) => [
    index('webhook_endpoints_merchant')
      .on(t.merchantId, t.mode, t.createdAt)
      .where(sql`${t.deletedAt} is null`),
    check('webhook_endpoints_status', sql`${t.status} in ('enabled', 'paused', 'disabled')`),
  ],
);

/**
 * The webhook outbox (lib/webhooks): one row per delivery of an event, written in the transaction
 * that makes the change, with the body as it was then: to the URL of the order or invoice
 * (`success`, `error`, `invoice`: its id is the event's, the `x-webhook-id` every retry carries)
 * and to each webhook endpoint that subscribes to the event's type (`endpoint`). A dispatcher claims due rows with a lease
 * (`next_attempt_at` moved to the lease's end), so a crashed dispatcher's rows come back by
 * themselves.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey(),
    /** The event delivered; null for an endpoint's test event and for webhooks written before events were kept. */
    eventId: uuid('event_id').references(() => events.id, { onDelete: 'set null' }),
    /** The event's type (`webhook_endpoint.test` for a test event); null for webhooks written before events were kept. */
    eventType: text('event_type'),
    /** The endpoint it goes to (kind `endpoint`). */
    endpointId: uuid('endpoint_id').references(() => webhookEndpoints.id),
    /**
     * The key that made the order or invoice: its webhook's `x-api-signature` (docs/decisions/048);
     * null: the mode's webhook key. A copy of the object's, whose own foreign key holds it: none
     * here, so that writing the outbox never waits on a key row.
     */
    apiKeyId: uuid('api_key_id'),
    /** The order; for an invoice's event, its chosen coin's order (null when none was chosen). */
    orderId: uuid('order_id').references(() => orders.id),
    /** Set for an invoice's event (kind `invoice`). */
    invoiceId: uuid('invoice_id').references(() => invoices.id),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    /** success: processed or overpaid, to successWebhook; error: expired, partial or error, to errorWebhook; invoice: an invoice's final status; endpoint: to a webhook endpoint. */
    kind: text('kind', { enum: WEBHOOK_KIND_VALUES }).notNull(),
    /** The order status an order's event reports; null for an invoice's. */
    orderStatus: text('order_status', { enum: ORDER_STATUS_VALUES }),
    invoiceStatus: text('invoice_status', { enum: INVOICE_STATUS_VALUES }),
    url: text('url').notNull(),
    /** The exact JSON sent (and signed) on every attempt. */
    body: text('body').notNull(),
    /**
     * The writing transaction: a delivery waits until every transaction older than it has ended, as
     * the event feed does (`events`), so that an event id a receiver got is a cursor of the feed.
     */
    txId: xid8('tx_id')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /** pending (waiting or being tried), delivered (a 2xx), failed (retries used up), refused (target not allowed). */
    state: text('state', { enum: WEBHOOK_STATE_VALUES }).notNull().default('pending'),
    /** Attempts made so far (the last one's `x-webhook-attempt`). */
    attempts: integer('attempts').notNull().default(0),
    /** Attempts made before the last re-send: the retry schedule restarts there. */
    scheduleBase: integer('schedule_base').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, precision: 3 }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // An order becomes final once, so it has at most one webhook of each kind.
    uniqueIndex('webhook_events_order_kind').on(t.orderId, t.kind),
    // An invoice becomes final once: one webhook.
    uniqueIndex('webhook_events_invoice').on(t.invoiceId),
    check(
      'webhook_events_subject',
      sql`(${t.endpointId} is not null) = (${t.kind} = 'endpoint') and (${t.kind} = 'endpoint' or ((${t.invoiceId} is null) = (${t.kind} <> 'invoice') and (${t.orderId} is not null or ${t.invoiceId} is not null)))`,
    ),
    // An event is delivered once to each endpoint.
    uniqueIndex('webhook_events_endpoint_event')
      .on(t.endpointId, t.eventId)
      .where(sql`${t.endpointId} is not null and ${t.eventId} is not null`),
    // An endpoint's delivery log (the dashboard's and webhook-endpoints/deliveries), newest first.
    index('webhook_events_endpoint')
      .on(t.endpointId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.endpointId} is not null`),
    index('webhook_events_due')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index('webhook_events_merchant').on(
      t.merchantId,
      t.mode,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The dashboard's failed deliveries (count and list): few rows.
    index('webhook_events_failed')
      .on(t.merchantId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.state} in ('failed', 'refused')`),
  ],
);

/** The delivery log: one row per attempt of a webhook event. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    /** The `x-webhook-attempt` sent. */
    attempt: integer('attempt').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** The HTTP status answered; null when there was no answer (timeout, connection refused, refused target). */
    statusCode: integer('status_code'),
    outcome: text('outcome', { enum: WEBHOOK_OUTCOME_VALUES }).notNull(),
    error: text('error'),
    /** The start of the response body (at most 1 KiB of text). */
    responseExcerpt: text('response_excerpt'),
  },
  (t) => [index('webhook_attempts_event').on(t.eventId, t.attempt)],
);

/**
 * The demo store's own records (it plays a merchant's server: it would have its own database; it
 * shares this one to keep the demo a single process). Written only by lib/store.
 */
export const storeOrders = pgTable('store_orders', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The cart at checkout: [{sku, quantity, cents}]. */
  items: jsonb('items').notNull(),
  totalCents: integer('total_cents').notNull(),
  /** Of the orders made before the store priced in dollars (make-order in a coin the store chose); null since. */
  currency: text('currency'),
  network: text('network'),
  amount: text('amount'),
  gatewayOrderId: uuid('gateway_order_id'),
  paymentLink: text('payment_link'),
  /** The gateway's invoice for the store order's dollar price; the shopper picks the coin on its page. */
  gatewayInvoiceId: uuid('gateway_invoice_id'),
  /** awaiting_payment, then the gateway order's final status as its webhook said. */
  status: text('status').notNull().default('awaiting_payment'),
  received: text('received'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** Webhook ids the store has acted on: a second copy of a webhook changes nothing. */
export const storeWebhookReceipts = pgTable('store_webhook_receipts', {
  webhookId: text('webhook_id').primaryKey(),
  storeOrderId: uuid('store_order_id').notNull(),
  status: text('status').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * Dashboard accounts (lib/users): a person signing in to one merchant's dashboard with a role.
 * `password_hash` is null until the one-time set-up link (first owner, invite) is used.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** Stored lower-case; one account per address across the gateway (sign-in names no merchant). */
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'viewer', 'cashier'] }).notNull(),
    /** scrypt, self-describing: `scrypt$N$r$p$salt$hash` (base64url). */
    passwordHash: text('password_hash'),
    /** The TOTP secret, AES-256-GCM encrypted with a key derived from APP_SECRET (as API keys). */
    totpSecretCiphertext: text('totp_secret_ciphertext'),
    /** Set when the user confirmed a first code: only then does sign-in ask for one. */
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, precision: 3 }),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    disabledAt: timestamp('disabled_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email').on(t.email),
    index('users_merchant').on(t.merchantId),
    check('users_role', sql`${t.role} in ('owner', 'admin', 'viewer', 'cashier')`),
  ],
);

/** Recovery codes of a user's second factor, each usable once; only their hashes are kept. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/**
 * Dashboard sessions, server-side: the cookie holds a random token, the row its SHA-256.
 * `stage` is `second-factor` between a right password and a right code; only `signed-in` opens pages.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    stage: text('stage', { enum: ['second-factor', 'signed-in'] }).notNull(),
    /** The test/live switch: every dashboard screen shows the data of this mode only. */
    mode: text('mode', { enum: MODE_VALUES }).notNull().default('test'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The absolute expiry; the idle one is last_seen_at + the idle timeout. */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('user_sessions_user').on(t.userId)],
);

/** One-time links (first owner's set-up, team invites, password resets); only the token's SHA-256 is kept. */
export const userTokens = pgTable(
  'user_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['set-up', 'invite', 'reset'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [index('user_tokens_user').on(t.userId)],
);

/**
 * Invitations to a merchant's team (docs/decisions/074): mailed to the address, accepted by choosing
 * a password on the set-up page, which only then creates the user. Written the same way whether or
 * not the address has an account elsewhere, so the inviter learns nothing from them. The link's
 * token is derived from the id (lib/mail/team.ts `teamLinkToken`); only its SHA-256 is kept.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** Stored lower-case, as users' addresses. */
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'viewer', 'cashier'] }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('team_invitations_token').on(t.tokenHash),
    index('team_invitations_merchant').on(t.merchantId, t.createdAt),
    check('team_invitations_role', sql`${t.role} in ('owner', 'admin', 'viewer', 'cashier')`),
  ],
);

/**
 * Sign-in limits per key (lib/users/throttle.ts), shared by every web server: failures in a row and
 * a lock for a client on an account, a client, a known device on an account; and an account's
 * budget of password checks from devices it has not signed in from.
 */
export const signInThrottle = pgTable('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true, precision: 3 }),
  /** An account's budget (`budget:EMAIL`): spent until this time, at one check per interval (a GCRA). */
  budgetSpentUntil: timestamp('budget_spent_until', { withTimezone: true, precision: 3 }),
});

/**
 * Browsers that signed in to a user before (the `cg_device` cookie holds a random token, the row
 * its SHA-256): their attempts on that account are limited on their own, apart from strangers'.
 */
export const userDevices = pgTable(
  'user_devices',
  {
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastSignedInAt: timestamp('last_signed_in_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tokenHash, t.userId] })],
);

/** What people did in the dashboard (sign-ins, keys, users, settings, resends); owners read it. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** Null for the command line and for a failed sign-in of an unknown address. */
    userId: uuid('user_id'),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    detail: jsonb('detail').notNull().default({}),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_merchant_created').on(t.merchantId, t.createdAt)],
);

/**
 * What a mail is about (lib/mail): the payer mails of an order, and the refund mails that the
 * refunds work (issue 37) writes through the same outbox.
 */
export const MAIL_KIND_VALUES = [
  'payment-detected',
  'payment-partial',
  'payment-paid',
  'payment-expired',
  'refund-claim',
  'refund-sent',
  'password-reset',
  'invitation',
  'new-device',
  'webhooks-failing',
  'daily-summary',
  'subscription-started',
  'subscription-invoice',
  'subscription-past-due',
  'subscription-canceled',
] as const;
/** pending (waiting or being tried), sent (the SMTP server's 250, or caught), failed (retries used up), refused (no valid recipient). */
export const MAIL_STATE_VALUES = ['pending', 'sent', 'failed', 'refused'] as const;

/**
 * The mail outbox (lib/mail, docs/mail.md): a row written in the transaction of the change that
 * causes it, claimed with a lease and sent at least once. Its id is the message's `Message-ID`, the
 * same on every attempt; `event_key` makes one message per event. The rendered message is kept
 * once sent, for the dashboard's Mail page (the built-in catcher shows it as it would arrive).
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    kind: text('kind', { enum: MAIL_KIND_VALUES }).notNull(),
    /** One message per event: `<order id>/<kind>` for an order's mail. */
    eventKey: text('event_key').notNull(),
    orderId: uuid('order_id').references(() => orders.id),
    /** The subscription a subscriber's mail is about (lib/subscriptions); null for the other kinds. */
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id),
    recipient: text('recipient').notNull(),
    /** What a team mail tells that no other row keeps (a new device's time and client address); no secret. */
    detail: jsonb('detail').$type<Record<string, string>>(),
    state: text('state', { enum: MAIL_STATE_VALUES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, precision: 3 }),
    /** The last failure, without secrets (the SMTP server's answer or the connection error). */
    lastError: text('last_error'),
    /** `smtp`, or `catcher` when the message was kept for the dashboard only (no SMTP_URL, or test mode). */
    transport: text('transport', { enum: ['smtp', 'catcher'] }),
    subject: text('subject'),
    /** The headers as sent (name, value), the plain text and the HTML. */
    headers: jsonb('headers'),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mail_messages_event').on(t.eventKey),
    index('mail_messages_due')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index('mail_messages_merchant').on(t.merchantId, t.mode, t.createdAt.desc().nullsFirst()),
    // The per-recipient limit counts a recipient's recent messages.
    index('mail_messages_recipient').on(t.recipient, t.createdAt),
    index('mail_messages_order').on(t.orderId),
  ],
);

/** Payers who unsubscribed from a merchant's mail (the link in every payer mail). */
export const mailUnsubscribes = pgTable(
  'mail_unsubscribes',
  {
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** Lower-case. */
    recipient: text('recipient').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.recipient] })],
);

/**
 * Subscription plans (lib/subscriptions, docs/subscriptions.md): a fiat price per period, an
 * optional trial, when the renewal invoice goes out before a period starts and how long an unpaid
 * period waits before the subscription is canceled.
 */
export const subscriptionPlans = pgTable(
  'subscription_plans',
  {
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    name: text('name').notNull(),
    /** The price currency, upper-case (a fiat code or a catalog ticker), and the price per period in its base units. */
    currency: text('currency').notNull(),
    priceDecimals: integer('price_decimals').notNull(),
    amount: money('amount').notNull(),
    /** A period is `interval_count` days, weeks, calendar months or years. */
    interval: text('interval', { enum: SUBSCRIPTION_INTERVAL_VALUES }).notNull(),
    intervalCount: integer('interval_count').notNull(),
    trialDays: integer('trial_days').notNull().default(0),
    /** The renewal invoice (and its mail) goes out this many days before its period starts. */
    reminderDays: integer('reminder_days').notNull(),
    /** An unpaid period is past due from its start, and the subscription canceled this many days after. */
    graceDays: integer('grace_days').notNull(),
    /** What the subscriber may pay with, as make-invoice's `currencies`; null: every enabled coin. */
    currencies: jsonb('currencies').$type<{ currency: string; networks?: string[] }[]>(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    check('subscription_plans_amount', sql`${t.amount} > 0`),
    check('subscription_plans_days', sql`${t.trialDays} >= 0 and ${t.reminderDays} >= 0 and ${t.graceDays} >= 0`),
    check('subscription_plans_count', sql`${t.intervalCount} between 1 and 365`),
    index('subscription_plans_merchant').on(t.merchantId, t.mode, t.createdAt.desc()),
  ],
);

/**
 * Subscribers of a plan. Periods are counted from `anchor` (the end of the trial, or the start):
 * period k of the current cycle starts k periods after it. `covered` periods of the cycle are paid
 * (prepaid credit is `covered` beyond the periods started); `renewed` of them have started and
 * been announced; `invoiced` periods had their renewal invoice made. A reactivation after a
 * cancellation starts a new cycle.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    mode: text('mode', { enum: MODE_VALUES }).notNull(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id),
    /** Lower-case. */
    email: text('email').notNull(),
    /** The merchant's own id of the customer. */
    customerId: text('customer_id'),
    /** A payer language of the payment page (lib/pay/i18n): the mails' and the subscriber page's. */
    language: text('language').notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUS_VALUES }).notNull(),
    cycle: integer('cycle').notNull().default(0),
    anchor: moment('anchor').notNull(),
    covered: integer('covered').notNull().default(0),
    renewed: integer('renewed').notNull().default(0),
    invoiced: integer('invoiced').notNull().default(0),
    startedAt: moment('started_at').notNull(),
    canceledAt: moment('canceled_at'),
    cancelReason: text('cancel_reason', { enum: SUBSCRIPTION_CANCEL_REASON_VALUES }),
    /**
     * The next instant, on the subscriptions' clock (lib/subscriptions/clock.ts), a renewal pass has
     * work for it (lib/subscriptions/rules.ts `nextDueAt`), written with every change; null when
     * only a payment can change it (canceled). A pass reads only the due ones.
     */
    dueAt: moment('due_at'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check('subscriptions_counts', sql`${t.covered} >= 0 and ${t.renewed} >= 0 and ${t.invoiced} >= 0`),
    index('subscriptions_merchant').on(t.merchantId, t.mode, t.createdAt.desc()),
    index('subscriptions_plan').on(t.planId),
    index('subscriptions_due')
      .on(t.dueAt)
      .where(sql`${t.dueAt} is not null`),
  ],
);

/**
 * The invoices of a subscription: a period's renewal (one per subscription, cycle and period: two
 * workers or a crash never make two), periods paid ahead, or a reactivation. A paid invoice adds
 * its periods to the subscription once (`credited_at`).
 */
export const subscriptionInvoices = pgTable(
  'subscription_invoices',
  {
    invoiceId: uuid('invoice_id')
      .primaryKey()
      .references(() => invoices.id),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    kind: text('kind', { enum: SUBSCRIPTION_INVOICE_KIND_VALUES }).notNull(),
    cycle: integer('cycle').notNull(),
    /** The period a renewal pays, and when it starts (the subscription's clock); null for the others. */
    period: integer('period'),
    periodStart: moment('period_start'),
    periods: integer('periods').notNull(),
    creditedAt: moment('credited_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('subscription_invoices_periods', sql`${t.periods} between 1 and 120`),
    uniqueIndex('subscription_invoices_renewal')
      .on(t.subscriptionId, t.cycle, t.period)
      .where(sql`${t.kind} = 'renewal'`),
    index('subscription_invoices_uncredited')
      .on(t.subscriptionId)
      .where(sql`${t.creditedAt} is null`),
  ],
);

/**
 * The subscriber page's links (docs/decisions/067): the hash of each token, never the token. A
 * `page` token opens the page as often as needed until it expires; a `cancel` token confirms one
 * cancellation and is spent by it.
 */
export const subscriptionTokens = pgTable(
  'subscription_tokens',
  {
    /** SHA-256 of the token, hex. */
    tokenHash: text('token_hash').primaryKey(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    purpose: text('purpose', { enum: ['page', 'cancel'] }).notNull(),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('subscription_tokens_expiry').on(t.expiresAt)],
);

/**
 * A merchant's test clock (docs/decisions/068): how far test-mode subscriptions' time is ahead of
 * real time. Live mode always runs on real time.
 */
export const subscriptionTestClocks = pgTable('subscription_test_clocks', {
  merchantId: uuid('merchant_id')
    .primaryKey()
    .references(() => merchants.id),
  offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
