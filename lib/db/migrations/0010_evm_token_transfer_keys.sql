-- Live EVM token transfers were keyed by their log's index in the block, which a transaction
-- re-mined in another block does not keep; they are keyed now by the position, from 1, of their log
-- among their transaction's Transfer logs of the configured contracts (docs/decisions/046). The
-- rows recorded before are re-keyed here, in the three tables that name a transfer by
-- (network, mode, tx_hash, output_index): each row's position among its transaction's token rows.
-- That is the position the adapter gives unless the transaction also carried a configured token's
-- transfer to an address the gateway does not watch, before this one (a batch payout): such a
-- row keeps a key a re-mining would not give back (decision 046 says what follows).
-- Keys go negative first and back after, so that no row takes a key another still holds.
UPDATE "payments" p SET "output_index" = -k.position
  FROM (SELECT t."network", t."mode", t."tx_hash", t."output_index",
               row_number() OVER (PARTITION BY t."network", t."mode", t."tx_hash" ORDER BY t."output_index") AS position
          FROM "chain_transfers" t
          JOIN (VALUES ('ethereum', 'ETH'), ('bsc', 'BNB'), ('polygon', 'POL'), ('arbitrum', 'ETH'), ('base', 'ETH'))
               AS evm ("network", "native") ON evm."network" = t."network" AND t."currency" <> evm."native"
         WHERE t."mode" = 'live') k
 WHERE p."network" = k."network" AND p."mode" = k."mode" AND p."tx_hash" = k."tx_hash" AND p."output_index" = k."output_index";
--> statement-breakpoint
UPDATE "deposits" d SET "in_output_index" = -k.position
  FROM (SELECT t."network", t."mode", t."tx_hash", t."output_index",
               row_number() OVER (PARTITION BY t."network", t."mode", t."tx_hash" ORDER BY t."output_index") AS position
          FROM "chain_transfers" t
          JOIN (VALUES ('ethereum', 'ETH'), ('bsc', 'BNB'), ('polygon', 'POL'), ('arbitrum', 'ETH'), ('base', 'ETH'))
               AS evm ("network", "native") ON evm."network" = t."network" AND t."currency" <> evm."native"
         WHERE t."mode" = 'live') k
 WHERE d."network" = k."network" AND d."mode" = k."mode" AND d."in_tx_hash" = k."tx_hash" AND d."in_output_index" = k."output_index";
--> statement-breakpoint
UPDATE "chain_transfers" c SET "output_index" = -k.position
  FROM (SELECT t."id",
               row_number() OVER (PARTITION BY t."network", t."mode", t."tx_hash" ORDER BY t."output_index") AS position
          FROM "chain_transfers" t
          JOIN (VALUES ('ethereum', 'ETH'), ('bsc', 'BNB'), ('polygon', 'POL'), ('arbitrum', 'ETH'), ('base', 'ETH'))
               AS evm ("network", "native") ON evm."network" = t."network" AND t."currency" <> evm."native"
         WHERE t."mode" = 'live') k
 WHERE c."id" = k."id";
--> statement-breakpoint
UPDATE "payments" SET "output_index" = -"output_index" WHERE "output_index" < 0;
--> statement-breakpoint
UPDATE "deposits" SET "in_output_index" = -"in_output_index" WHERE "in_output_index" < 0;
--> statement-breakpoint
UPDATE "chain_transfers" SET "output_index" = -"output_index" WHERE "output_index" < 0;
