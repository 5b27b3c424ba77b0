CREATE TABLE "deposit_keys" (
	"merchant_id" uuid NOT NULL,
	"network" text NOT NULL,
	"mode" text NOT NULL,
	"key" text NOT NULL,
	"key_fingerprint" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_keys_merchant_id_network_mode_pk" PRIMARY KEY("merchant_id","network","mode")
);
--> statement-breakpoint
DROP INDEX "addresses_derivation";--> statement-breakpoint
ALTER TABLE "deposit_keys" ADD CONSTRAINT "deposit_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_keys_fingerprint" ON "deposit_keys" USING btree ("network","mode","key_fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_derivation" ON "addresses" USING btree ("network","mode","key_fingerprint","derivation_index");