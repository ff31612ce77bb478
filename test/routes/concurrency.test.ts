// Racing commands and idempotent retries: one winner per version, no gaps, no
// duplicates, and a retried command never appends twice.
import t, { type Test } from 'tap';
import { buildApp } from '../../src/app.ts';
import { createClients } from '../../src/db/client.ts';
import { testDatabase } from '../helpers/database.ts';
import { command, createGame, testApp, testClock } from '../helpers/app.ts';
import { pick, seededRng } from '../../src/bots/rng.ts';
import type { App } from '../../src/app.ts';
import { onCitus } from '../helpers/citus.ts';

async function seqs(app: App, id: string): Promise<number[]> {
  const log = (await app.inject({ url: `/games/${id}/events?limit=1000` })).json();
  return log.events.map((e: { seq: number }) => e.seq);
}

const gapless = (list: number[]) => list.every((seq, i) => seq === i + 1);

/** Two server instances on one database; only the first fires deadlines. */
async function twoInstances(t: Test, clock?: () => number): Promise<[App, App]> {
  const database = await testDatabase(t);
  const first = await testApp(t, { database, clock });
  const secondClients = createClients(database.url, { poolSize: 4 });
  t.teardown(() => secondClients.close());
  const second = await buildApp({ ...secondClients, clock, scheduler: { timers: false }, distributed: onCitus() });
  t.teardown(() => second.close());
  return [first, second];
}

t.test('many racing commands at one version: exactly one wins, the rest get 409', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}, {}], seed: 'race' });
  const { version } = (await app.inject({ url: `/games/${id}` })).json();
  const answers = await Promise.all(Array.from({ length: 12 }, () => command(app, id, tokens[0], { command: { type: 'throw' }, expectedVersion: version })));
  const statuses = answers.map((a) => a.statusCode).sort();
  t.equal(statuses.filter((s) => s === 200).length, 1, 'one command wins');
  t.equal(statuses.filter((s) => s === 409).length, 11, 'the others are told the version moved on');
  for (const lost of answers.filter((a) => a.statusCode === 409)) {
    t.equal(lost.json().code, 'command/stale-version');
    t.ok(lost.json().currentVersion > version, 'and at which version the game is now');
  }
  const log = await seqs(app, id);
  t.ok(gapless(log), 'the log has no gaps or duplicates');
  t.equal(log.length, answers.find((a) => a.statusCode === 200)!.json().version);
});

t.test('two server instances racing on one database: the (game, seq) key lets one win', async (t) => {
  const [first, second] = await twoInstances(t);

  const { id, tokens } = await createGame(first, { type: 'pechvogel', seats: [{}, {}], seed: 'two-instances' });
  // Both instances cache the game at the same version before racing.
  const { version } = (await first.inject({ url: `/games/${id}` })).json();
  await second.inject({ url: `/games/${id}` });
  for (let round = 0; round < 5; round++) {
    const current = (await first.inject({ url: `/games/${id}` })).json();
    if (current.pending.seats.length === 0) break;
    const seat = current.pending.seats[0];
    const legal = (await first.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[seat]}` } })).json().legalCommands;
    const [a, b] = await Promise.all([
      command(first, id, tokens[seat], { command: legal[0], expectedVersion: current.version }),
      command(second, id, tokens[seat], { command: legal[0], expectedVersion: current.version }),
    ]);
    t.same([a.statusCode, b.statusCode].sort(), [200, 409], `round ${round}: one instance wins, the other gets 409`);
  }
  const log = await seqs(first, id);
  t.ok(log.length > version && gapless(log), 'the shared log stays gap-free');
});

t.test('commands without an expected version are applied in arrival order, none lost', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'order' });
  const before = (await seqs(app, id)).length;
  // The player throws once; the rest of the burst is refused by the rules, not lost.
  const answers = await Promise.all(Array.from({ length: 5 }, () => command(app, id, tokens[0], { command: { type: 'throw' } })));
  const accepted = answers.filter((a) => a.statusCode === 200);
  t.ok(accepted.length >= 1, 'the first throw is accepted');
  for (const refused of answers.filter((a) => a.statusCode !== 200)) {
    t.equal(refused.statusCode, 422, 'later ones meet the new state and the rules refuse them');
    t.match(refused.json().code, /^pechvogel\//);
  }
  const log = await seqs(app, id);
  t.ok(gapless(log));
  t.equal(log.length, before + accepted.reduce((n, a) => n + a.json().events.length, 0), 'every accepted event is in the log, once');
});

t.test('an Idempotency-Key makes a retry return the first answer and append nothing', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'idempotent' });
  const headers = { 'idempotency-key': 'throw-1' };
  const first = await command(app, id, tokens[0], { command: { type: 'throw' } }, headers);
  t.equal(first.statusCode, 200);
  const afterFirst = await seqs(app, id);

  const retry = await command(app, id, tokens[0], { command: { type: 'throw' } }, headers);
  t.equal(retry.statusCode, 200);
  t.same(retry.json(), first.json(), 'the retry gets the first answer');
  t.same(await seqs(app, id), afterFirst, 'and appends nothing');

  const racingRetries = await Promise.all(Array.from({ length: 4 }, () => command(app, id, tokens[0], { command: { type: 'throw' } }, headers)));
  for (const r of racingRetries) t.same([r.statusCode, r.json()], [200, first.json()], 'concurrent retries all get the first answer');
  t.same(await seqs(app, id), afterFirst);

  const other = await command(app, id, tokens[0], { command: { type: 'pass' } }, headers);
  t.equal(other.statusCode, 422, 'the same key with another command is refused');
  t.equal(other.json().code, 'command/idempotency-key-reused');
  t.same(await seqs(app, id), afterFirst, 'and changes nothing');
});

t.test('a refusal is never given on a state another instance has moved past', async (t) => {
  const [first, second] = await twoInstances(t);

  const { id, tokens } = await createGame(first, { type: 'pechvogel', seats: [{}, {}, {}], seed: 'stale-cache' });
  // The second instance reads the game, so it caches it; then the first moves it on.
  const opening = (await second.inject({ url: `/games/${id}` })).json();
  const thrower = opening.pending.seats[0];
  const thrown = await command(first, id, tokens[thrower], { command: { type: 'throw' } });
  t.equal(thrown.statusCode, 200, 'the first instance throws');
  const next: number = thrown.json().pending.seats[0];
  const legal = (await first.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[next]}` } })).json().legalCommands;
  t.equal(legal[0]?.type, 'chooseTarget', 'the thrower now chooses a target, which the stale copy would refuse');
  const answer = await command(second, id, tokens[next], { command: legal[0] });
  t.equal(answer.statusCode, 200, 'the second instance does not refuse it on its stale copy');
  t.ok(gapless(await seqs(first, id)), 'and the log stays gap-free');
});

t.test('two instances, every seat at once, round after round: each acknowledged command is in the log where its answer says, and nothing else is', async (t) => {
  const clock = testClock();
  const instances = await twoInstances(t, clock);
  const [first] = instances;

  // Porca Miseria with eight seats: after a reveal every seat may grab or pass at once.
  const { id, tokens } = await createGame(first, { type: 'porca-miseria', seats: Array.from({ length: 8 }, () => ({})), seed: 'storm', options: { maxActions: 6 } });
  const start = (await first.inject({ url: `/games/${id}` })).json().version;
  const rng = seededRng('storm');
  const accepted: { version: number; events: { seq: number; event: { type: string } }[] }[] = [];
  let refused = 0;
  const unexpected: string[] = [];
  for (let round = 0; round < 40; round++) {
    const game = (await first.inject({ url: `/games/${id}` })).json();
    if (game.status === 'finished') break;
    const seats: number[] = game.pending.seats;
    const legal = await Promise.all(seats.map(async (seat) => (await first.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[seat]}` } })).json().legalCommands));
    // Each seat's command goes to one instance or the other, some to both at once.
    const sends = await Promise.all(
      seats.map((seat, i) => {
        const targets = rng.below(4) === 0 ? instances : [pick(rng, instances)];
        const chosen = pick(rng, legal[i]);
        return Promise.all(targets.map((app) => command(app, id, tokens[seat], { command: chosen })));
      }),
    );
    for (const answer of sends.flat()) {
      if (answer.statusCode === 200) accepted.push(answer.json());
      else if (answer.statusCode === 422 || answer.json().code === 'game/not-running') refused++;
      else unexpected.push(answer.body);
    }
    // No deadlines are needed: a window closes once every seat acted, and a reveal comes next.
  }
  t.ok(accepted.length > 20 && refused > 0, `the storm had winners and losers (${accepted.length} accepted, ${refused} refused)`);
  t.same(unexpected, [], 'every other command was refused by the rules, or because the game had ended');

  const log = (await first.inject({ url: `/games/${id}/events?after=${start}&limit=1000` })).json().events as { seq: number; event: { type: string }; actor: string }[];
  const answered = accepted.flatMap((a) => {
    t.same(a.events.map((e) => e.seq), Array.from({ length: a.events.length }, (_, i) => a.version - a.events.length + 1 + i), 'an answer numbers its events up to its version');
    return a.events;
  });
  const fromCommands = log.filter((e) => e.actor !== 'system');
  t.same(answered.map((e) => e.seq).sort((a, b) => a - b), fromCommands.map((e) => e.seq), 'every seat event in the log was acknowledged once, and every acknowledged one is in the log');
  const bySeq = new Map(log.map((e) => [e.seq, e.event.type]));
  t.ok(answered.every((e) => bySeq.get(e.seq) === e.event.type), 'at the very place its answer gave');
  t.ok(gapless(log.map((e) => e.seq - start)), 'gap-free');
});
