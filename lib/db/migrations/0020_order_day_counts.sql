CREATE TABLE "order_day_counts" (
	"merchant_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"day" timestamp (3) with time zone NOT NULL,
	"counts" jsonb NOT NULL,
	CONSTRAINT "order_day_counts_merchant_id_mode_day_pk" PRIMARY KEY("merchant_id","mode","day")
);
--> statement-breakpoint
ALTER TABLE "order_day_counts" ADD CONSTRAINT "order_day_counts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deposits_order" ON "deposits" USING btree ("order_id") WHERE "deposits"."order_id" is not null;