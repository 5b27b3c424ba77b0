ALTER TABLE "collection_plans" ADD COLUMN "kind" text DEFAULT 'collection' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD COLUMN "refund" jsonb;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "refund_approval_above" numeric(30, 8);--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "refund_approval_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "fee_from_refund" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approval" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approved_by" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approved_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD CONSTRAINT "collection_plans_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_plans_refund_open" ON "collection_plans" USING btree ("refund_id") WHERE "collection_plans"."status" in ('prepared', 'broadcast');--> statement-breakpoint
ALTER TABLE "collection_plans" ADD CONSTRAINT "collection_plans_refund" CHECK (("collection_plans"."kind" = 'refund') = ("collection_plans"."refund_id" is not null and "collection_plans"."refund" is not null));