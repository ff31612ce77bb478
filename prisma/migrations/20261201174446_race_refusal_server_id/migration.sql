-- The server chooses a refusal's id: a record may ride with two statements and is kept
-- once. The refusals already recorded get one each. One index, keyed by game, is all
-- the reads need, and no foreign key: checking it cost Postgres about as much as the
-- insert itself, and games are never deleted.
ALTER TABLE "race_refusal" DROP CONSTRAINT "race_refusal_game_id_fkey";

DROP INDEX "race_refusal_game_id_version_idx";

ALTER TABLE "race_refusal" DROP CONSTRAINT "race_refusal_pkey",
ALTER COLUMN "id" DROP DEFAULT,
ALTER COLUMN "id" SET DATA TYPE UUID USING gen_random_uuid(),
ADD CONSTRAINT "race_refusal_pkey" PRIMARY KEY ("game_id", "id");

DROP SEQUENCE "race_refusal_id_seq";
