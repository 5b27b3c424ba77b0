ALTER TABLE "collection_plans" ADD COLUMN "kind" text DEFAULT 'collection' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD COLUMN "refund" jsonb;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD CONSTRAINT "collection_plans_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_plans_refund_open" ON "collection_plans" USING btree ("refund_id") WHERE "collection_plans"."status" in ('prepared', 'broadcast');--> statement-breakpoint
ALTER TABLE "collection_plans" ADD CONSTRAINT "collection_plans_refund" CHECK (("collection_plans"."kind" = 'refund') = ("collection_plans"."refund_id" is not null and "collection_plans"."refund" is not null));