import { randomUUID } from 'node:crypto';
import t from 'tap';
import { testDatabase } from '../helpers/database.ts';

const game = (id: string) => ({
  id,
  type: 'pechvogel',
  rulesVersion: '1',
  options: {},
  seatCount: 2,
  chanceMode: 'server',
  seed: 'seed',
  seedHash: 'hash',
  refereeTokenHash: 'referee',
  status: 'open',
});

t.test('every migration is applied to a test database', async (t) => {
  const { prisma } = await testDatabase(t);
  const rows = await prisma.$queryRaw<{ migration_name: string; finished_at: Date | null }[]>`
    SELECT migration_name, finished_at FROM _prisma_migrations`;
  t.ok(rows.length > 0, 'migrations are recorded');
  t.ok(rows.every((row) => row.finished_at !== null), 'and finished');
  t.equal(await prisma.game.count(), 0, 'the schema exists and starts empty');
});

t.test('two test databases do not see each other', async (t) => {
  const a = await testDatabase(t);
  const b = await testDatabase(t);
  t.not(a.url, b.url);
  const id = randomUUID();
  await a.prisma.game.create({ data: game(id) });
  await a.prisma.event.create({
    data: { gameId: id, seq: 1, type: 'created', data: { x: 1 }, actor: 'system', at: new Date() },
  });
  t.equal(await a.prisma.event.count(), 1);
  t.equal(await b.prisma.game.count(), 0, 'a write in one is not seen in the other');
  t.equal(await b.prisma.game.findUnique({ where: { id } }), null);
});

t.test('the (game, seq) key refuses a second writer of the same seq', async (t) => {
  const { prisma } = await testDatabase(t);
  const id = randomUUID();
  await prisma.game.create({ data: game(id) });
  const event = { gameId: id, seq: 1, type: 'x', data: {}, actor: 'system', at: new Date() };
  await prisma.event.create({ data: event });
  await t.rejects(prisma.event.create({ data: event }), { code: 'P2002' });
});
