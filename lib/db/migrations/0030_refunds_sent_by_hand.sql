ALTER TABLE "refunds" ADD COLUMN "sent_by_hand" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "tx_block_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_txid" ON "refunds" USING btree ("network","mode","txid") WHERE "refunds"."txid" is not null;--> statement-breakpoint
CREATE INDEX "refunds_sent_by_hand" ON "refunds" USING btree ("network","mode") WHERE "refunds"."state" = 'sent' and "refunds"."sent_by_hand";