// The functions the event store calls on Citus (src/events/citus.ts) write what the
// plain statements write (store.ts). They are plain PL/pgSQL, so plain PostgreSQL runs
// them too: the suite checks them on every run, where `npm run test:citus` needs a
// cluster this machine and CI do not have. A column added to games (the bot think time
// of spielwerk_create_game_v2) that the function forgot would be lost on Citus only.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { botsFor, play } from '../../src/bots/index.ts';
import { findGame } from '../../src/domain/games.ts';
import { citusFunctions } from '../../src/events/citus.ts';
import { EventStore } from '../../src/events/store.ts';
import { testDatabase } from '../helpers/database.ts';

const game = findGame('pechvogel')!;
const random = botsFor(game.type)!.random!;
const played = play(game, { bots: [random, random], seed: 'citus-functions' });

function newGame(botThinkMs: number | null): Parameters<EventStore['createGame']>[0] {
  const now = new Date('2026-12-05T12:00:00.000Z');
  return {
    id: randomUUID(),
    type: game.type,
    rulesVersion: game.rulesVersion,
    options: played.setup.options,
    seatCount: 2,
    chanceMode: 'server',
    seed: 'citus-functions',
    seedHash: 'hash',
    seedNonce: 'nonce',
    seedChosenBy: 'creator',
    botThinkMs,
    refereeTokenHash: 'referee',
    createdAt: now,
    organizerId: null,
    tournament: null,
    seats: [
      { seat: 0, name: '<img src=x onerror=alert(1)>', tokenHash: 'seat-0', joinedAt: now, bot: null },
      { seat: 1, name: 'Greedy bot 2', tokenHash: null, joinedAt: now, bot: 'greedy' },
    ],
  };
}

t.test("Citus's functions write a game, its seats and events, and appends, as the plain statements do", async (t) => {
  const { prisma, pool } = await testDatabase(t);
  for (const fn of citusFunctions) await pool.query(fn.definition);
  const plain = new EventStore(prisma, pool);
  const citus = new EventStore(prisma, pool, null, undefined, true);
  const opening = played.events.slice(0, 2);
  const next = played.events.slice(2, 4);

  for (const botThinkMs of [300, 0, null]) {
    const written = [];
    for (const store of [plain, citus]) {
      const record = newGame(botThinkMs);
      await store.createGame(record, { events: opening, status: 'running', deadline: null });
      t.equal(await store.append({ gameId: record.id, expectedVersion: opening.length, events: next, actor: 'seat:0', at: record.createdAt, commandId: 'c-1', status: 'running', deadline: null, idempotency: null }), 'appended');
      const { id: _id, updatedAt: _updated, ...loaded } = (await store.loadGame(record.id))!;
      written.push({ loaded, events: await store.readEvents(record.id, 0) });
    }
    t.equal(written[1]!.loaded.botThinkMs, botThinkMs, `the game's think time (${botThinkMs}) is kept on Citus`);
    t.strictSame(written[1], written[0], `think time ${botThinkMs}: the same record, seats and events either way`);
  }
});
