CREATE TABLE "collection_plan_inputs" (
	"plan_id" uuid NOT NULL,
	"transfer_id" uuid NOT NULL,
	"open" boolean DEFAULT true NOT NULL,
	CONSTRAINT "collection_plan_inputs_plan_id_transfer_id_pk" PRIMARY KEY("plan_id","transfer_id")
);
--> statement-breakpoint
CREATE TABLE "collection_plans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'prepared' NOT NULL,
	"treasury" text NOT NULL,
	"master_fingerprint" text NOT NULL,
	"fee_rate" numeric(78, 0) NOT NULL,
	"total" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"sent" numeric(78, 0) NOT NULL,
	"psbt" text NOT NULL,
	"txid" text,
	"reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_plans_amounts" CHECK ("collection_plans"."sent" + "collection_plans"."fee" = "collection_plans"."total" and "collection_plans"."fee" >= 0 and "collection_plans"."sent" > 0)
);
--> statement-breakpoint
CREATE TABLE "treasuries" (
	"merchant_id" uuid NOT NULL,
	"network" text NOT NULL,
	"mode" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "treasuries_merchant_id_network_mode_pk" PRIMARY KEY("merchant_id","network","mode")
);
--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD COLUMN "spent_by_tx" text;--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD COLUMN "spent_at_height" bigint;--> statement-breakpoint
ALTER TABLE "collection_plan_inputs" ADD CONSTRAINT "collection_plan_inputs_plan_id_collection_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."collection_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_plan_inputs" ADD CONSTRAINT "collection_plan_inputs_transfer_id_chain_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."chain_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_plans" ADD CONSTRAINT "collection_plans_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasuries" ADD CONSTRAINT "treasuries_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_plan_inputs_open" ON "collection_plan_inputs" USING btree ("transfer_id") WHERE "collection_plan_inputs"."open";--> statement-breakpoint
CREATE INDEX "collection_plans_merchant" ON "collection_plans" USING btree ("merchant_id","mode","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "collection_plans_open" ON "collection_plans" USING btree ("network","mode") WHERE "collection_plans"."status" in ('prepared', 'broadcast');--> statement-breakpoint
CREATE INDEX "chain_transfers_unspent" ON "chain_transfers" USING btree ("merchant_id","mode","network") WHERE "chain_transfers"."spent_by_tx" is null and "chain_transfers"."dropped" = false;