ALTER TABLE "collection_plans" ALTER COLUMN "master_fingerprint" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_plans" ALTER COLUMN "psbt" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD COLUMN "format" text DEFAULT 'psbt' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD COLUMN "body" jsonb;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD CONSTRAINT "collection_plans_format" CHECK (("collection_plans"."format" = 'psbt') = ("collection_plans"."psbt" is not null and "collection_plans"."master_fingerprint" is not null and "collection_plans"."body" is null));