CREATE TABLE "order_resolutions" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"kind" text NOT NULL,
	"decided_by" text NOT NULL,
	"user_id" uuid,
	"remainder_order_id" uuid,
	"total_received" numeric(78, 0) NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "late_accept_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "late_accept_rate_move_percent" numeric(9, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "remainder_of" uuid;--> statement-breakpoint
ALTER TABLE "order_resolutions" ADD CONSTRAINT "order_resolutions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_resolutions" ADD CONSTRAINT "order_resolutions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_resolutions" ADD CONSTRAINT "order_resolutions_remainder_order_id_orders_id_fk" FOREIGN KEY ("remainder_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_remainder_of_orders_id_fk" FOREIGN KEY ("remainder_of") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_remainder_of" ON "orders" USING btree ("remainder_of");