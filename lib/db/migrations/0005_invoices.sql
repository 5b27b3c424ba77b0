CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"advanced_balance_id" uuid NOT NULL,
	"external_id" text,
	"client_order" text,
	"idempotency_key" text,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"price_decimals" integer NOT NULL,
	"description" text,
	"include_fee" boolean DEFAULT false NOT NULL,
	"additional_fees" jsonb,
	"insurance_percent" numeric(9, 6),
	"slippage_percent" numeric(9, 6),
	"webhook_url" text,
	"return_url" text,
	"lifetime" integer NOT NULL,
	"currencies" jsonb NOT NULL,
	"quote_rates" jsonb NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"order_id" uuid,
	"rate" text,
	"choices" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "store_orders" ALTER COLUMN "currency" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "store_orders" ALTER COLUMN "network" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "store_orders" ALTER COLUMN "amount" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ALTER COLUMN "order_status" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "store_orders" ADD COLUMN "gateway_invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "invoice_status" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_idempotency" ON "invoices" USING btree ("merchant_id","mode","idempotency_key");--> statement-breakpoint
CREATE INDEX "invoices_merchant_created" ON "invoices" USING btree ("merchant_id","mode","created_at");--> statement-breakpoint
CREATE INDEX "invoices_order" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoices_open_expiry" ON "invoices" USING btree ("expires_at") WHERE "invoices"."status" in ('CREATED', 'INIT');--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_invoice" ON "webhook_events" USING btree ("invoice_id");--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_subject" CHECK (("webhook_events"."invoice_id" is null) = ("webhook_events"."kind" <> 'invoice') and ("webhook_events"."order_id" is not null or "webhook_events"."invoice_id" is not null));