CREATE TABLE "subscription_invoices" (
	"invoice_id" uuid PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"cycle" integer NOT NULL,
	"period" integer,
	"period_start" timestamp (3) with time zone,
	"periods" integer NOT NULL,
	"credited_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_invoices_periods" CHECK ("subscription_invoices"."periods" between 1 and 120)
);
--> statement-breakpoint
CREATE TABLE "subscription_plans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"price_decimals" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"interval" text NOT NULL,
	"interval_count" integer NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"reminder_days" integer NOT NULL,
	"grace_days" integer NOT NULL,
	"currencies" jsonb,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_plans_amount" CHECK ("subscription_plans"."amount" > 0),
	CONSTRAINT "subscription_plans_days" CHECK ("subscription_plans"."trial_days" >= 0 and "subscription_plans"."reminder_days" >= 0 and "subscription_plans"."grace_days" >= 0),
	CONSTRAINT "subscription_plans_count" CHECK ("subscription_plans"."interval_count" between 1 and 365)
);
--> statement-breakpoint
CREATE TABLE "subscription_test_clocks" (
	"merchant_id" uuid PRIMARY KEY NOT NULL,
	"offset_ms" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"plan_id" uuid NOT NULL,
	"email" text NOT NULL,
	"customer_id" text,
	"language" text NOT NULL,
	"status" text NOT NULL,
	"cycle" integer DEFAULT 0 NOT NULL,
	"anchor" timestamp (3) with time zone NOT NULL,
	"covered" integer DEFAULT 0 NOT NULL,
	"renewed" integer DEFAULT 0 NOT NULL,
	"invoiced" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"canceled_at" timestamp (3) with time zone,
	"cancel_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_counts" CHECK ("subscriptions"."covered" >= 0 and "subscriptions"."renewed" >= 0 and "subscriptions"."invoiced" >= 0)
);
--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "subscription_id" uuid;--> statement-breakpoint
ALTER TABLE "subscription_invoices" ADD CONSTRAINT "subscription_invoices_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_invoices" ADD CONSTRAINT "subscription_invoices_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_test_clocks" ADD CONSTRAINT "subscription_test_clocks_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_tokens" ADD CONSTRAINT "subscription_tokens_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_invoices_renewal" ON "subscription_invoices" USING btree ("subscription_id","cycle","period") WHERE "subscription_invoices"."kind" = 'renewal';--> statement-breakpoint
CREATE INDEX "subscription_invoices_uncredited" ON "subscription_invoices" USING btree ("subscription_id") WHERE "subscription_invoices"."credited_at" is null;--> statement-breakpoint
CREATE INDEX "subscription_plans_merchant" ON "subscription_plans" USING btree ("merchant_id","mode","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "subscription_tokens_expiry" ON "subscription_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "subscriptions_merchant" ON "subscriptions" USING btree ("merchant_id","mode","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "subscriptions_plan" ON "subscriptions" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "subscriptions_open" ON "subscriptions" USING btree ("status") WHERE "subscriptions"."status" <> 'canceled';--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;