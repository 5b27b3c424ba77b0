CREATE TABLE "partial_spends" (
	"transfer_id" uuid NOT NULL,
	"tx_hash" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"spent_at_height" bigint NOT NULL,
	CONSTRAINT "partial_spends_transfer_id_tx_hash_pk" PRIMARY KEY("transfer_id","tx_hash")
);
--> statement-breakpoint
ALTER TABLE "partial_spends" ADD CONSTRAINT "partial_spends_transfer_id_chain_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."chain_transfers"("id") ON DELETE no action ON UPDATE no action;