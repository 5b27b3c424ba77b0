DROP INDEX "subscriptions_open";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "due_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "subscriptions_due" ON "subscriptions" USING btree ("due_at") WHERE "subscriptions"."due_at" is not null;--> statement-breakpoint
-- Existing subscriptions are due at once: the next pass computes and writes the true instant.
UPDATE "subscriptions" SET "due_at" = now() WHERE "status" <> 'canceled';
