CREATE TABLE "chain_blocks" (
	"network" text NOT NULL,
	"mode" text NOT NULL,
	"height" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "chain_blocks_network_mode_height_pk" PRIMARY KEY("network","mode","height")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"network" text NOT NULL,
	"mode" text NOT NULL,
	"height" bigint NOT NULL,
	"hash" text NOT NULL,
	"block_time" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_cursors_network_mode_pk" PRIMARY KEY("network","mode")
);
--> statement-breakpoint
CREATE TABLE "chain_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"mode" text NOT NULL,
	"tx_hash" text NOT NULL,
	"output_index" integer NOT NULL,
	"address_id" uuid NOT NULL,
	"order_id" uuid,
	"merchant_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"sender" text,
	"block_height" bigint,
	"first_seen_at" timestamp (3) with time zone NOT NULL,
	"dropped" boolean DEFAULT false NOT NULL,
	"settled_role" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"message" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_blocks" (
	"network" text NOT NULL,
	"height" bigint NOT NULL,
	"hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"mined_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sandbox_blocks_network_height_pk" PRIMARY KEY("network","height")
);
--> statement-breakpoint
CREATE TABLE "sandbox_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"tx_hash" text NOT NULL,
	"output_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"tag" text,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"block_height" bigint,
	"broadcast_at" timestamp (3) with time zone NOT NULL,
	"dropped_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transfers_transfer" ON "chain_transfers" USING btree ("network","mode","tx_hash","output_index");--> statement-breakpoint
CREATE INDEX "chain_transfers_order" ON "chain_transfers" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "chain_transfers_unsettled" ON "chain_transfers" USING btree ("network","mode","block_height") WHERE "chain_transfers"."dropped" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "order_events_once" ON "order_events" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_transfers_transfer" ON "sandbox_transfers" USING btree ("network","tx_hash","output_index");--> statement-breakpoint
CREATE INDEX "sandbox_transfers_block" ON "sandbox_transfers" USING btree ("network","block_height");