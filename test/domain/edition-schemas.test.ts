// Each game's edition data fits its edition schema exactly: the catalog serves the
// data, the API documents describe it with the schema.
import t from 'tap';
import { games } from '../../src/domain/games.ts';

for (const game of games) {
  t.test(`${game.type}: the edition fits editionSchema`, async (t) => {
    const parsed = game.editionSchema.safeParse(game.edition);
    t.ok(parsed.success, parsed.error?.message ?? 'parses');
    t.same(parsed.data, game.edition, 'unchanged by parsing');
    t.notOk(game.editionSchema.safeParse({ ...(game.edition as object), planted: true }).success, 'a field the schema lacks is refused');
  });
}
