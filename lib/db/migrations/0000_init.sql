CREATE TABLE "addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"mode" text NOT NULL,
	"kind" text NOT NULL,
	"derivation_index" bigint NOT NULL,
	"address" text NOT NULL,
	"tag" text,
	"merchant_id" uuid,
	"external_user_id" uuid,
	"assigned_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "advanced_balances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"balance" numeric(78, 0) DEFAULT '0' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"public_key" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_public_key_unique" UNIQUE("public_key"),
	CONSTRAINT "api_keys_mode" CHECK ("api_keys"."mode" in ('test', 'live'))
);
--> statement-breakpoint
CREATE TABLE "api_nonces" (
	"key_id" uuid NOT NULL,
	"nonce" numeric(40, 0) NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_nonces_key_id_nonce_pk" PRIMARY KEY("key_id","nonce")
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid,
	"stage" text DEFAULT 'DEPOSIT' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"message" text,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"address_id" uuid NOT NULL,
	"address" text NOT NULL,
	"tag" text,
	"in_tx_hash" text NOT NULL,
	"in_output_index" integer NOT NULL,
	"in_status" text DEFAULT 'pending' NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"fee_amount" numeric(78, 0) DEFAULT '0' NOT NULL,
	"out_address" text,
	"out_tx_hash" text,
	"out_amount" numeric(78, 0),
	"out_status" text,
	"out_fee_amount" numeric(78, 0),
	"out_fee_amount_usd_cents" numeric(78, 0),
	"withdrawal_id" uuid,
	"out_created_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "external_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"external_user_id" text NOT NULL,
	"email" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"fee_percent" numeric(9, 6) DEFAULT '0' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"client_order_id" text NOT NULL,
	"currency" text NOT NULL,
	"network" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"tolerance_percent" numeric(9, 6) NOT NULL,
	"threshold" numeric(78, 0) NOT NULL,
	"received" numeric(78, 0) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message" text,
	"address_id" uuid NOT NULL,
	"address" text NOT NULL,
	"tag" text,
	"external_user_id" text,
	"payer_email" text,
	"description" text,
	"success_webhook" text,
	"error_webhook" text,
	"return_url" text,
	"check_risks" boolean DEFAULT false NOT NULL,
	"lifetime" integer NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"address_id" uuid NOT NULL,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"tx_hash" text NOT NULL,
	"output_index" integer NOT NULL,
	"address" text NOT NULL,
	"tag" text,
	"sender_address" text,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"fee_amount" numeric(78, 0) DEFAULT '0' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_external_user_id_external_users_id_fk" FOREIGN KEY ("external_user_id") REFERENCES "public"."external_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advanced_balances" ADD CONSTRAINT "advanced_balances_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_users" ADD CONSTRAINT "external_users_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_derivation" ON "addresses" USING btree ("network","mode","derivation_index");--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_destination" ON "addresses" USING btree ("network","mode","address",coalesce("tag", ''));--> statement-breakpoint
CREATE INDEX "addresses_free_pool" ON "addresses" USING btree ("network","mode","derivation_index") WHERE "addresses"."assigned_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_personal" ON "addresses" USING btree ("merchant_id","mode","external_user_id","network") WHERE "addresses"."kind" = 'PERSONAL';--> statement-breakpoint
CREATE UNIQUE INDEX "advanced_balances_merchant_mode" ON "advanced_balances" USING btree ("merchant_id","mode");--> statement-breakpoint
CREATE INDEX "api_nonces_created_at" ON "api_nonces" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_transfer" ON "deposits" USING btree ("network","mode","in_tx_hash","in_output_index");--> statement-breakpoint
CREATE INDEX "deposits_in_tx" ON "deposits" USING btree (lower("in_tx_hash"));--> statement-breakpoint
CREATE INDEX "deposits_out_tx" ON "deposits" USING btree (lower("out_tx_hash"));--> statement-breakpoint
CREATE INDEX "deposits_merchant" ON "deposits" USING btree ("merchant_id","mode");--> statement-breakpoint
CREATE UNIQUE INDEX "external_users_merchant_user" ON "external_users" USING btree ("merchant_id","mode","external_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_client_order" ON "orders" USING btree ("merchant_id","mode","client_order_id");--> statement-breakpoint
CREATE INDEX "orders_merchant_created" ON "orders" USING btree ("merchant_id","mode","created_at");--> statement-breakpoint
CREATE INDEX "orders_pending_expiry" ON "orders" USING btree ("expires_at") WHERE "orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "orders_address" ON "orders" USING btree ("address_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_transfer" ON "payments" USING btree ("network","mode","tx_hash","output_index");--> statement-breakpoint
CREATE INDEX "payments_tx" ON "payments" USING btree (lower("tx_hash"));--> statement-breakpoint
CREATE INDEX "payments_order" ON "payments" USING btree ("order_id");