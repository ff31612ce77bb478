// A seat changed beside the game's log reaches every instance. An instance that
// appended a game's last command trusts its copy of the game, seats and tokens
// included, until it hears otherwise; a player who withdraws from a tournament on one
// instance (the seat handed to a bot, the token revoked) must not play on through
// another (TournamentStore.seatBot, Notifier); nor watch it through a socket she had
// opened before (LiveHub.seatsChanged).
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import type { App } from '../../src/app.ts';
import { bearerHeader, command, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { connect } from '../helpers/ws.ts';
import { testDatabase } from '../helpers/database.ts';
import { createTournament } from '../helpers/tournaments.ts';

t.test("a player withdrawn on one instance is refused on the other, which had appended the table's last command", async (t) => {
  const database = await testDatabase(t);
  const clock = testClock();
  const organizing = await testApp(t, { database, clock });
  const playing = await testApp(t, { database, clock });
  const organizer = await createOrganizer(organizing);
  const created = await createTournament(organizing, organizer.key, {
    name: 'Zwei Säle', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 1, tableSize: { min: 4, max: 4 }, byes: false },
    settings: { options: { reactionSeconds: 1 }, advance: 'organizer' },
    players: [{ name: 'Ada' }, { name: 'Bea' }, { name: 'Cem' }, { name: 'Dan' }],
  });
  const id = created.tournament.id;
  const round = (await organizing.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} })).json();
  const gameId: string = round.tables[0].gameId;
  const players = created.players.map((p) => ({ id: p.player, token: p.token! }));
  const viewOf = async (token: string) => (await playing.inject({ url: `/games/${gameId}`, headers: bearerHeader(token) })).json();

  // The table's first command goes through the playing instance, which now holds the game.
  const views = await Promise.all(players.map((p) => viewOf(p.token)));
  const mover = views.findIndex((v) => v.legalCommands.length > 0);
  const moved = await command(playing, gameId, players[mover]!.token, { command: views[mover].legalCommands[0], expectedVersion: views[mover].version });
  t.equal(moved.statusCode, 200, 'the first command goes through the playing instance');
  const after = await Promise.all(players.map((p) => viewOf(p.token)));
  const leaving = after.findIndex((v) => v.legalCommands.length === 0);
  const version: number = moved.json().version;
  const attempt = { command: after.find((v) => v.legalCommands.length > 0).legalCommands[0], expectedVersion: version };
  t.equal((await command(playing, gameId, players[leaving]!.token, attempt)).statusCode, 422, 'before: the seat is hers, the rules refuse the command (not her turn)');

  const withdrew = await organizing.inject({ method: 'POST', url: `/tournaments/${id}/players/${players[leaving]!.id}/withdraw`, headers: bearerHeader(organizer.key) });
  t.equal(withdrew.statusCode, 200, 'she withdraws through the organizing instance');
  const refusedThere = await command(organizing, gameId, players[leaving]!.token, attempt);
  t.equal(refusedThere.statusCode, 403, 'the organizing instance refuses her token');

  let answer = await command(playing, gameId, players[leaving]!.token, attempt);
  for (let tries = 0; answer.statusCode !== 403 && tries < 40; tries++) {
    await sleep(25);
    answer = await command(playing, gameId, players[leaving]!.token, attempt);
  }
  t.same([answer.statusCode, answer.json().code], [403, refusedThere.json().code], 'the playing instance refuses it too, within a second');
  await organizing.services.bots.idle();
  t.equal((await viewOf(players[mover]!.token)).version, version, 'nothing moved meanwhile: the refusal came from the seats alone');
});

/** A Mistkäfer table of a one-round tournament, its four players, and where to reach it. */
async function mistkaeferTable(organizing: App) {
  const organizer = await createOrganizer(organizing);
  const created = await createTournament(organizing, organizer.key, {
    name: 'Käferrunde', gameType: 'mistkaefer', format: { kind: 'swiss', rounds: 1, tableSize: { min: 4, max: 4 }, byes: false },
    settings: { advance: 'organizer' },
    players: [{ name: 'Ada' }, { name: 'Bea' }, { name: 'Cem' }, { name: 'Dan' }],
  });
  const id = created.tournament.id;
  const round = (await organizing.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} })).json();
  const table = round.tables[0];
  // The table lists its players by seat.
  const players = (table.players as string[]).map((player) => ({ id: player, token: created.players.find((p) => p.player === player)!.token! }));
  const withdraw = (player: string) => organizing.inject({ method: 'POST', url: `/tournaments/${id}/players/${player}/withdraw`, headers: bearerHeader(organizer.key) });
  return { gameId: table.gameId as string, players, withdraw };
}

for (const where of ['the same instance', 'another instance'] as const) {
  t.test(`a withdrawn player's open socket stops showing her seat, on ${where}`, async (t) => {
    const database = await testDatabase(t);
    const organizing = await testApp(t, { database });
    const watching = where === 'the same instance' ? organizing : await testApp(t, { database });
    const { gameId, players, withdraw } = await mistkaeferTable(organizing);
    const [bea, cem] = [players[1]!, players[2]!];
    const hers = await connect(watching, `/games/${gameId}/live?token=${bea.token}`);
    const his = await connect(watching, `/games/${gameId}/live?token=${cem.token}`);
    t.teardown(() => his.socket.close());
    t.type((await hers.next()).view.hands[1].kinds, Array, 'before: her socket shows her own chips');
    await his.next();

    t.equal((await withdraw(bea.id)).statusCode, 200, 'the organizer withdraws her; a bot takes her seat');
    const refusal = await hers.next();
    t.same([refusal.type, refusal.problem.code, refusal.problem.status], ['error', 'auth/forbidden', 403], 'her socket is told why');
    t.same(await hers.closed, { code: 4403, reason: 'auth/forbidden' }, "and closed: the seat, and the bot's chips there, are no longer hers to see");
    const again = await connect(watching, `/games/${gameId}/live?token=${bea.token}`);
    t.equal((await again.closed).code, 4403, 'her token opens no new socket either');
    t.equal(his.socket.readyState, his.socket.OPEN, "the other players' sockets stay open");
  });
}

t.test('a socket whose seat was read just before a withdrawal, and that joins after the sockets were checked, shows nothing through her eyes', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const { gameId, players, withdraw } = await mistkaeferTable(app);
  const bea = players[1]!;
  // The withdrawal lands between the socket reading Bea's seat and joining the game's
  // channel, when no socket watches the game yet.
  const { reads } = app.services;
  const principalFor = reads.principalFor.bind(reads);
  let withdrawn = false;
  reads.principalFor = async (id, token) => {
    const read = await principalFor(id, token);
    if (!withdrawn) {
      withdrawn = true;
      t.equal((await withdraw(bea.id)).statusCode, 200, 'she is withdrawn after her seat was read');
    }
    return read;
  };
  const hers = await connect(app, `/games/${gameId}/live?token=${bea.token}`);
  const first = await hers.next();
  t.same([first.type, first.problem?.code], ['error', 'auth/forbidden'], 'the first message is the refusal, not an update through her old eyes');
  t.equal((await hers.closed).code, 4403);
});

t.test("a withdrawal whose notice an instance missed (its listener was cut) closes her socket there once it listens again", async (t) => {
  const database = await testDatabase(t);
  const organizing = await testApp(t, { database });
  // Slow to reconnect, so that the withdrawal's notice goes out while nobody there listens.
  const watching = await testApp(t, { database, notifier: { retryMs: 1500 } });
  const { gameId, players, withdraw } = await mistkaeferTable(organizing);
  const bea = players[1]!;
  const hers = await connect(watching, `/games/${gameId}/live?token=${bea.token}`);
  await hers.next();
  const { rows } = await database.pool.query<{ ok: boolean }>(
    'SELECT pg_terminate_backend(pid, 2000) AS ok FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
    [watching.services.notifier!.applicationName],
  );
  t.same(rows.map((row) => row.ok), [true], "the watching instance's listener is cut");
  t.equal((await withdraw(bea.id)).statusCode, 200, 'she is withdrawn meanwhile');
  const refusal = await hers.next();
  t.same([refusal.type, refusal.problem.code], ['error', 'auth/forbidden'], 'once it listens again, her socket is checked and refused');
  t.equal((await hers.closed).code, 4403);
});
