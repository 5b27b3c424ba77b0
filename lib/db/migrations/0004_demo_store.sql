CREATE TABLE "store_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"items" jsonb NOT NULL,
	"total_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"amount" text NOT NULL,
	"gateway_order_id" uuid,
	"payment_link" text,
	"status" text DEFAULT 'awaiting_payment' NOT NULL,
	"received" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_webhook_receipts" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"store_order_id" uuid NOT NULL,
	"status" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
