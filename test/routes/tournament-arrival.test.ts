// Presence at a tournament's table is arrival, and a no-show is a seat the game waits
// on (issue 25 item 2): a player who read her table with her token is present though
// she has not moved; one who never opened it is a no-show once the deadline has passed
// and her turn has come, not before. A tournament's table does not wait for arrival:
// its clock runs from the pairing.
import t, { type Test } from 'tap';
import { bearerHeader, command, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { createTournament, quick } from '../helpers/tournaments.ts';

/** A 3-seat Pechvogel table of people with a 2 s no-show rule (forfeit), paired, its
 * seats 0 and 1 read by their players; the clock is then past the deadline. */
async function table(t: Test) {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const created = await createTournament(app, organizer.key, {
    name: 'Anwesend', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 1, tableSize: { min: 3, max: 3 }, byes: true },
    settings: { ...quick, advance: 'organizer', noShow: { afterSeconds: 2, action: 'forfeit' } },
    players: [{ name: 'Ada' }, { name: 'Bea' }, { name: 'Cem' }],
  });
  const id = created.tournament.id;
  const tokenOf = new Map(created.players.map((p) => [p.player, p.token!]));
  const round = (await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} })).json();
  const gameId = round.tables[0].gameId as string;
  const players = round.tables[0].players as string[];
  const tokens = players.map((p) => tokenOf.get(p)!);
  t.equal((await app.inject({ url: `/games/${gameId}` })).json().game.status, 'running', 'a tournament table starts at once');
  for (const token of tokens.slice(0, 2)) t.equal((await app.inject({ url: `/games/${gameId}`, headers: bearerHeader(token) })).statusCode, 200);
  clock.now += 3_000;

  const log = async () => (await app.inject({ url: `/tournaments/${id}/events` })).json().events.map((e: { event: unknown }) => e.event) as { type: string; player?: string; reason?: string; forfeited?: boolean }[];
  const takenOver = async () => (await log()).filter((e) => e.type === 'SeatTakenOver').map((e) => e.player);
  const spectated = async () => (await app.inject({ url: `/games/${gameId}` })).json() as { version: number; pending: { seats: number[] } };
  /** The seat plays its first legal command (a pass where it may: no frustration spent). */
  const move = async (seat: number) => {
    const read = (await app.inject({ url: `/games/${gameId}`, headers: bearerHeader(tokens[seat]) })).json();
    const legal = read.legalCommands as { type: string }[];
    const sent = await command(app, gameId, tokens[seat], { command: legal.find((c) => c.type === 'pass') ?? legal[0], expectedVersion: read.version });
    if (sent.statusCode >= 300) throw new Error(`seat ${seat}: ${sent.statusCode} ${sent.body}`);
  };
  /** Seats 0 and 1 play, slowly: the ticker looks before each move (the deadline long
   * past), until the game waits on `seat`; `onTurn(s)` once the game first waits on s. */
  const playUntil = async (seat: number, onTurn: (s: number) => Promise<void> = async () => {}) => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const { pending } = await spectated();
      if (pending.seats.includes(seat)) return;
      await app.services.tournaments.attend();
      for (const s of pending.seats) if (!seen.has(s)) { seen.add(s); await onTurn(s); }
      if (pending.seats.length === 0) throw new Error('the game waits on nobody');
      await move(pending.seats[0]!);
    }
    throw new Error(`seat ${seat}'s turn never came`);
  };
  return { app, players, tokens, gameId, log, takenOver, spectated, move, playUntil };
}

t.test('a seat that never opens its table is taken over when its turn comes, not at the deadline; those who only read it are present', async (t) => {
  const { app, players, log, takenOver, spectated, playUntil } = await table(t);
  await app.services.tournaments.attend();
  t.same(await takenOver(), [], 'at the deadline the game waits on seat 0, who read her table: nobody is a no-show (seat 2 is silent, but its turn has not come)');
  let waitedOnBeforeSeat2 = 0;
  await playUntil(2, async (s) => {
    waitedOnBeforeSeat2++;
    t.same(await takenOver(), [], `the game waits on seat ${s}, who has only read the table so far: present`);
  });
  t.ok(waitedOnBeforeSeat2 >= 2, 'seats 0 and 1 played their turns first');
  t.same(await takenOver(), [], 'seat 2 stays hers while its turn has not come');
  await app.services.tournaments.attend();
  const takeovers = (await log()).filter((e) => e.type === 'SeatTakenOver');
  t.same(takeovers.map((e) => [e.player, e.reason, e.forfeited]), [[players[2], 'no-show', true]], 'once the game waits on seat 2, who never opened it, the next tick hands it to a bot: the one distinct no-show at the table');
  t.ok((await log()).some((e) => e.type === 'PlayerAbsent' && e.player === players[2]), 'and she is left out of later rounds');
  const before = (await spectated()).version;
  await app.services.bots.idle();
  t.ok((await spectated()).version > before, 'the bot plays on: the table does not stall');
});

t.test('a seat whose first turn comes after the deadline, and who arrives just before it, is never a no-show', async (t) => {
  const { app, gameId, tokens, takenOver, spectated, move, playUntil } = await table(t);
  await playUntil(2, async (s) => {
    // Cem opens her table as Bea's turn begins, long after the deadline.
    if (s === 1) t.equal((await app.inject({ url: `/games/${gameId}`, headers: bearerHeader(tokens[2]) })).statusCode, 200, 'Cem opens her table');
  });
  await app.services.tournaments.attend();
  t.same(await takenOver(), [], 'the game waits on her, and nobody is taken over');
  const before = (await spectated()).version;
  await move(2);
  t.ok((await spectated()).version > before, 'she plays her own turn with her token');
});
