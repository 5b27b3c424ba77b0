-- The chain time at each cursor (lib/watcher/chain-time.ts). A cursor kept so far judged by its
-- block's time: that is where its chain time starts.
ALTER TABLE "chain_cursors" ADD COLUMN "chain_time" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "chain_cursors" SET "chain_time" = "block_time";--> statement-breakpoint
ALTER TABLE "chain_cursors" ALTER COLUMN "chain_time" SET NOT NULL;
