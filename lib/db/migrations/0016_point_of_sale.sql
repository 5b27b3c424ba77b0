ALTER TABLE "users" DROP CONSTRAINT "users_role";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "sold_by" uuid;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "pos_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "pos_tips" jsonb DEFAULT '[10,15,20]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_sold_by" ON "invoices" USING btree ("sold_by","created_at" DESC NULLS LAST) WHERE "invoices"."sold_by" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role" CHECK ("users"."role" in ('owner', 'admin', 'viewer', 'cashier'));