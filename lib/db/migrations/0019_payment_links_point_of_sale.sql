CREATE TABLE "payment_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"image" text,
	"currency" text NOT NULL,
	"price_decimals" integer NOT NULL,
	"amount" numeric(78, 0),
	"min_amount" numeric(78, 0),
	"max_amount" numeric(78, 0),
	"max_quantity" integer,
	"currencies" jsonb,
	"webhook_url" text,
	"return_url" text,
	"expires_at" timestamp (3) with time zone,
	"max_uses" integer,
	"views" bigint DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_links_mode" CHECK ("payment_links"."mode" in ('test', 'live')),
	CONSTRAINT "payment_links_price" CHECK (("payment_links"."amount" is not null and "payment_links"."min_amount" is null and "payment_links"."max_amount" is null)
        or ("payment_links"."amount" is null and "payment_links"."min_amount" is not null and "payment_links"."max_amount" is not null and "payment_links"."min_amount" <= "payment_links"."max_amount"))
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_role";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "link_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "sold_by" uuid;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "pos_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "pos_tips" jsonb DEFAULT '[10,15,20]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_links_merchant_created" ON "payment_links" USING btree ("merchant_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_link_id_payment_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_sold_by" ON "invoices" USING btree ("sold_by","created_at" DESC NULLS LAST) WHERE "invoices"."sold_by" is not null;--> statement-breakpoint
CREATE INDEX "invoices_link" ON "invoices" USING btree ("link_id","status") WHERE "invoices"."link_id" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role" CHECK ("users"."role" in ('owner', 'admin', 'viewer', 'cashier'));