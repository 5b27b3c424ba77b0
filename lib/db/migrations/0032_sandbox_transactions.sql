CREATE TABLE "sandbox_transactions" (
	"network" text NOT NULL,
	"tx_hash" text NOT NULL,
	"raw" text NOT NULL,
	CONSTRAINT "sandbox_transactions_network_tx_hash_pk" PRIMARY KEY("network","tx_hash")
);
--> statement-breakpoint
ALTER TABLE "sandbox_transfers" ADD COLUMN "spent_by_tx" text;