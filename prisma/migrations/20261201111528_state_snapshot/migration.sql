-- CreateTable
CREATE TABLE "state_snapshot" (
    "game_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "rules_version" TEXT NOT NULL,
    "state" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "state_snapshot_pkey" PRIMARY KEY ("game_id")
);

-- AddForeignKey
ALTER TABLE "state_snapshot" ADD CONSTRAINT "state_snapshot_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE CASCADE;
