// Five minutes with @spielwerk/client: create a Pechvogel game for two, watch it live
// as seat 0, and play seat 0's moves over the socket and seat 1's over REST until the
// game ends. Run against a server: SPIELWERK_URL=http://localhost:3000 (the default).
//
// Any 409 is the same for a client: the game moved on before the command arrived
// (`command/stale-version`: the version it was decided for is gone; `command/conflict`:
// another command was appended first). Nothing was applied; read the game and decide
// again. Every other refusal is a mistake of this program and ends it.
import { bearer, createRestClient, LiveError, LiveGame, sendCommand, type CommandOf } from '@spielwerk/client';

const baseUrl = process.env.SPIELWERK_URL ?? 'http://localhost:3000';
const rest = createRestClient({ baseUrl });

// 1. Create the game. The body is typed by its `type`: Pechvogel's options only.
const created = await rest.POST('/games', { body: { type: 'pechvogel', seats: [{ name: 'Umberto' }, { name: 'Thea' }], options: { reactionSeconds: 1 } } });
if (created.error !== undefined) throw new Error(`${created.error.code}: ${created.error.detail}`);
const game = { type: 'pechvogel' as const, id: created.data.game.id };
const [umberto, thea] = created.data.seats.map((seat) => seat.token ?? '');
if (umberto === undefined || thea === undefined) throw new Error('a game for two has two seats');

// 2. Umberto (seat 0) connects: every update is his view, in order, once.
const live = new LiveGame({ baseUrl, gameId: game.id, gameType: game.type, token: umberto });

// 3. Thea plays over REST: her first legal command, at the version she read, again
//    after a 409 until she has moved or it is not her turn any more.
const theaMoves = async (): Promise<void> => {
  for (;;) {
    const mine = await rest.GET('/games/{id}', { params: { path: { id: game.id } }, headers: bearer(thea) });
    if (mine.error !== undefined) throw new Error(`${mine.error.code}: ${mine.error.detail}`);
    const [command] = mine.data.gameType === 'pechvogel' ? mine.data.legalCommands : [];
    if (command === undefined) return;
    const answer = await sendCommand(rest, game, command, { expectedVersion: mine.data.version, headers: bearer(thea) });
    if (answer.error === undefined) return;
    if (answer.response.status !== 409) throw new Error(`${answer.error.code}: ${answer.error.detail}`);
  }
};

for await (const update of live) {
  // The view is typed: a Pechvogel table.
  const turn = update.view.turn;
  console.log(`version ${update.version}: ${update.events.map((e) => e.event.type).join(', ') || 'connected'}; ${turn === null ? 'no turn' : `seat ${turn.seat}'s turn, ${turn.remaining} dice left`}`);
  if (update.result !== null) {
    console.log('scores', update.result.scores.join(' : '));
    break;
  }
  // Umberto's legal commands come with the update; the first one is always fine here.
  const [mine]: CommandOf<'pechvogel'>[] = update.legalCommands;
  if (mine !== undefined) {
    try {
      await live.send(mine, { expectedVersion: update.version });
    } catch (error) {
      // A 409: the next update brings the game as it is now, and he decides again.
      if (!(error instanceof LiveError && error.problem.status === 409)) throw error;
    }
  } else if (update.pending.seats.includes(1)) await theaMoves();
}
live.close();
