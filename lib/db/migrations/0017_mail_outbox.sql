CREATE TABLE "mail_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"kind" text NOT NULL,
	"event_key" text NOT NULL,
	"order_id" uuid,
	"recipient" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp (3) with time zone,
	"last_error" text,
	"transport" text,
	"subject" text,
	"headers" jsonb,
	"text_body" text,
	"html_body" text,
	"sent_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_unsubscribes" (
	"merchant_id" uuid NOT NULL,
	"recipient" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_unsubscribes_merchant_id_recipient_pk" PRIMARY KEY("merchant_id","recipient")
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "mail_sender_name" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "mail_reply_to" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "payer_mail_off" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payer_language" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" ADD CONSTRAINT "mail_unsubscribes_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_event" ON "mail_messages" USING btree ("event_key");--> statement-breakpoint
CREATE INDEX "mail_messages_due" ON "mail_messages" USING btree ("next_attempt_at") WHERE "mail_messages"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "mail_messages_merchant" ON "mail_messages" USING btree ("merchant_id","mode","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "mail_messages_recipient" ON "mail_messages" USING btree ("recipient","created_at");--> statement-breakpoint
CREATE INDEX "mail_messages_order" ON "mail_messages" USING btree ("order_id");