-- Arrival: a game waits until the people at its seats have opened it (docs/lifecycle.md).
-- AlterTable
ALTER TABLE "game" ADD COLUMN     "rematch_id" UUID,
ADD COLUMN     "started_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "seat" ADD COLUMN     "arrived_at" TIMESTAMPTZ(3);

-- started_at is written only for a game that waited: one without it started when created.
-- The people of games from before arrival count as there.
UPDATE "seat" SET "arrived_at" = "joined_at" WHERE "bot" IS NULL AND "token_hash" IS NOT NULL;
