-- CreateTable
CREATE TABLE "race_refusal" (
    "id" BIGSERIAL NOT NULL,
    "game_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "seat" INTEGER NOT NULL,
    "actor" TEXT NOT NULL,
    "command" JSONB NOT NULL,
    "code" TEXT NOT NULL,
    "received_at" BIGINT NOT NULL,
    "ord" INTEGER NOT NULL,

    CONSTRAINT "race_refusal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "race_refusal_game_id_version_idx" ON "race_refusal"("game_id", "version");

-- AddForeignKey
ALTER TABLE "race_refusal" ADD CONSTRAINT "race_refusal_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE CASCADE;
