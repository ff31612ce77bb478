-- AlterTable
ALTER TABLE "game" ADD COLUMN     "organizer_id" UUID;

-- CreateTable
CREATE TABLE "organizer" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" TEXT NOT NULL,
    "organizer_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournament" (
    "id" UUID NOT NULL,
    "organizer_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "game_type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "next_round_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tournament_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournament_event" (
    "tournament_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tournament_event_pkey" PRIMARY KEY ("tournament_id","seq")
);

-- CreateTable
CREATE TABLE "tournament_player" (
    "tournament_id" UUID NOT NULL,
    "player_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,

    CONSTRAINT "tournament_player_pkey" PRIMARY KEY ("tournament_id","player_id")
);

-- CreateTable
CREATE TABLE "tournament_table" (
    "game_id" UUID NOT NULL,
    "tournament_id" UUID NOT NULL,
    "round" INTEGER NOT NULL,
    "players" TEXT[],

    CONSTRAINT "tournament_table_pkey" PRIMARY KEY ("game_id")
);

-- CreateTable
CREATE TABLE "tournament_command" (
    "tournament_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tournament_command_pkey" PRIMARY KEY ("tournament_id","key")
);

-- CreateTable
CREATE TABLE "rating" (
    "game_type" TEXT NOT NULL,
    "player" TEXT NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "sigma" DOUBLE PRECISION NOT NULL,
    "ordinal" DOUBLE PRECISION NOT NULL,
    "tables" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rating_pkey" PRIMARY KEY ("game_type","player")
);

-- CreateIndex
CREATE INDEX "api_key_organizer_id_idx" ON "api_key"("organizer_id");

-- CreateIndex
CREATE INDEX "tournament_organizer_id_created_at_idx" ON "tournament"("organizer_id", "created_at");

-- CreateIndex
CREATE INDEX "tournament_next_round_at_idx" ON "tournament"("next_round_at");

-- CreateIndex
CREATE UNIQUE INDEX "tournament_player_token_hash_key" ON "tournament_player"("token_hash");

-- CreateIndex
CREATE INDEX "tournament_table_tournament_id_round_idx" ON "tournament_table"("tournament_id", "round");

-- CreateIndex
CREATE INDEX "game_organizer_id_created_at_idx" ON "game"("organizer_id", "created_at");

-- CreateIndex
CREATE INDEX "game_finished_at_idx" ON "game"("finished_at");

-- AddForeignKey
ALTER TABLE "game" ADD CONSTRAINT "game_organizer_id_fkey" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_organizer_id_fkey" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament" ADD CONSTRAINT "tournament_organizer_id_fkey" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_event" ADD CONSTRAINT "tournament_event_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_player" ADD CONSTRAINT "tournament_player_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_table" ADD CONSTRAINT "tournament_table_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_table" ADD CONSTRAINT "tournament_table_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_command" ADD CONSTRAINT "tournament_command_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;
