ALTER TABLE "invoices" ADD COLUMN "order_rates" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_invoice" ON "orders" USING btree ("invoice_id") WHERE "orders"."invoice_id" is not null;--> statement-breakpoint
-- The rate of each invoice's latest choice; earlier choices' rates were not kept.
UPDATE "invoices" SET "order_rates" = jsonb_build_object("order_id"::text, "rate") WHERE "order_id" IS NOT NULL AND "rate" IS NOT NULL;
