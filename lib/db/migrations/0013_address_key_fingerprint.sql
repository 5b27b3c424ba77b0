-- The key each pool address comes from (lib/addresses poolKeyFingerprint). Addresses written
-- before keep none: the first fill drops those not handed out yet and derives them again.
ALTER TABLE "addresses" ADD COLUMN "key_fingerprint" text;
