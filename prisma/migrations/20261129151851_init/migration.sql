-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "game" (
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "rules_version" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "seat_count" INTEGER NOT NULL,
    "chance_mode" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "seed_hash" TEXT NOT NULL,
    "referee_token_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "deadline" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "game_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "seat" (
    "game_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "name" TEXT,
    "token_hash" TEXT,
    "joined_at" TIMESTAMPTZ(3),

    CONSTRAINT "seat_pkey" PRIMARY KEY ("game_id","seat")
);

-- CreateTable
CREATE TABLE "event" (
    "game_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "actor" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "command_id" TEXT,
    "schema_version" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "event_pkey" PRIMARY KEY ("game_id","seq")
);

-- CreateTable
CREATE TABLE "command_record" (
    "game_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_record_pkey" PRIMARY KEY ("game_id","key")
);

-- CreateIndex
CREATE INDEX "game_type_status_created_at_idx" ON "game"("type", "status", "created_at");

-- CreateIndex
CREATE INDEX "game_status_created_at_idx" ON "game"("status", "created_at");

-- CreateIndex
CREATE INDEX "game_deadline_idx" ON "game"("deadline");

-- AddForeignKey
ALTER TABLE "seat" ADD CONSTRAINT "seat_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event" ADD CONSTRAINT "event_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "command_record" ADD CONSTRAINT "command_record_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE CASCADE;
