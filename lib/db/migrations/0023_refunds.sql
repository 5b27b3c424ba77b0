CREATE TABLE "refund_balances" (
	"source_kind" text NOT NULL,
	"source_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"received" numeric(78, 0) NOT NULL,
	"refunded" numeric(78, 0) DEFAULT '0' NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_balances_source_kind_source_id_pk" PRIMARY KEY("source_kind","source_id"),
	CONSTRAINT "refund_balances_within_received" CHECK ("refund_balances"."refunded" >= 0 and "refund_balances"."refunded" <= "refund_balances"."received")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" uuid NOT NULL,
	"order_id" uuid,
	"invoice_id" uuid,
	"deposit_id" uuid,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"price_amount" text,
	"price_currency" text,
	"price_rate" text,
	"price_rate_source" text,
	"state" text DEFAULT 'awaiting_address' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"claim_token_hash" text NOT NULL,
	"claim_expires_at" timestamp (3) with time zone NOT NULL,
	"claim_delivery" text NOT NULL,
	"address" text,
	"tag" text,
	"address_confirmed_at" timestamp (3) with time zone,
	"txid" text,
	"reason" text,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount" > 0),
	CONSTRAINT "refunds_address_when_ready" CHECK ("refunds"."state" = 'awaiting_address' or "refunds"."state" = 'canceled' or "refunds"."address" is not null)
);
--> statement-breakpoint
ALTER TABLE "refund_balances" ADD CONSTRAINT "refund_balances_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_deposit_id_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."deposits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_claim_token" ON "refunds" USING btree ("claim_token_hash");--> statement-breakpoint
CREATE INDEX "refunds_merchant_created" ON "refunds" USING btree ("merchant_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "refunds_source" ON "refunds" USING btree ("source_kind","source_id");--> statement-breakpoint
CREATE INDEX "refunds_order" ON "refunds" USING btree ("order_id") WHERE "refunds"."order_id" is not null;