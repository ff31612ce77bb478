-- The commitment to a seed covers a random server nonce with it, so a weak seed chosen
-- by a creator cannot be found from it. Games created before have no nonce (null) and
-- keep the bare SHA-256 of their seed, and who chose it is not known (null).
ALTER TABLE "game" ADD COLUMN "seed_nonce" TEXT,
ADD COLUMN "seed_chosen_by" TEXT;
