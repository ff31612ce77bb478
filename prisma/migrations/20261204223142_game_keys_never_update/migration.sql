-- The foreign keys on game_id no longer cascade an update of a game's id (which never
-- changes): Citus refuses ON UPDATE CASCADE on the column it distributes rows by
-- (docs/scaling.md).
ALTER TABLE "seat" DROP CONSTRAINT "seat_game_id_fkey";
ALTER TABLE "seat" ADD CONSTRAINT "seat_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

ALTER TABLE "event" DROP CONSTRAINT "event_game_id_fkey";
ALTER TABLE "event" ADD CONSTRAINT "event_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

ALTER TABLE "command_record" DROP CONSTRAINT "command_record_game_id_fkey";
ALTER TABLE "command_record" ADD CONSTRAINT "command_record_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

ALTER TABLE "state_snapshot" DROP CONSTRAINT "state_snapshot_game_id_fkey";
ALTER TABLE "state_snapshot" ADD CONSTRAINT "state_snapshot_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

ALTER TABLE "tournament_table" DROP CONSTRAINT "tournament_table_game_id_fkey";
ALTER TABLE "tournament_table" ADD CONSTRAINT "tournament_table_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "game"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
