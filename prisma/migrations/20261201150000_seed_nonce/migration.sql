-- The seed's commitment covers a random server nonce with the seed, so a weak seed a
-- creator chose cannot be found from it; games created before have no nonce (null)
-- and keep the bare SHA-256 of their seed. Who chose the seed is null for them too.
ALTER TABLE "game" ADD COLUMN "seed_nonce" TEXT,
ADD COLUMN "seed_chosen_by" TEXT;
