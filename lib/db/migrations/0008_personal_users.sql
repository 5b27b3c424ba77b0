ALTER TABLE "external_users" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "external_users" ADD COLUMN "deposit_webhook_url" text;