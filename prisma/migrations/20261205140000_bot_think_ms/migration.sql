-- The bot think time a game asked for when it was created, in ms, or null for the server default (BOT_THINK_MS)
-- AlterTable
ALTER TABLE "game" ADD COLUMN     "bot_think_ms" INTEGER;
