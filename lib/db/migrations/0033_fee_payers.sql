CREATE TABLE "fee_payers" (
	"merchant_id" uuid NOT NULL,
	"network" text NOT NULL,
	"mode" text NOT NULL,
	"address" text NOT NULL,
	"path" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_payers_merchant_id_network_mode_pk" PRIMARY KEY("merchant_id","network","mode")
);
--> statement-breakpoint
ALTER TABLE "fee_payers" ADD CONSTRAINT "fee_payers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;