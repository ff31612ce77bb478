// Commands refuse what they do not understand: a field a command does not have is
// named in the problem (unknownFields) and nothing is appended, for every command of
// every game. A misspelt field must never be dropped silently.
import t from 'tap';
import { games } from '../../src/domain/games.ts';
import { command, createGame, testApp } from '../helpers/app.ts';

const seatsOf = (type: string) => Array.from({ length: type === 'pechvogel' || type === 'mistkaefer' ? 2 : 3 }, () => ({}));

/** Every command type of the game's command schema (a discriminated union on `type`). */
function commandTypes(game: (typeof games)[number]): string[] {
  const union = game.commandSchema as unknown as { options: { shape: { type: { value: string } } }[] };
  return union.options.map((member) => member.shape.type.value);
}

t.test('every command of every game refuses an unknown field and names it', async (t) => {
  const app = await testApp(t);
  for (const game of games) {
    const { id, tokens } = await createGame(app, { type: game.type, seats: seatsOf(game.type), seed: 'strict' });
    const before = (await app.inject({ url: `/games/${id}` })).json().version;
    const types = commandTypes(game);
    t.ok(types.length >= 4, `${game.type}: its command types are found (${types.join(', ')})`);
    for (const type of types) {
      const response = await command(app, id, tokens[0], { command: { type, bogus: 1 } });
      t.equal(response.statusCode, 400, `${game.type} ${type}: 400`);
      t.equal(response.json().code, 'command/invalid');
      t.same(response.json().unknownFields, ['bogus'], `${game.type} ${type}: the unknown field is named`);
      t.match(response.json().detail, /bogus/);
    }
    t.equal((await app.inject({ url: `/games/${id}` })).json().version, before, `${game.type}: nothing appended`);
  }
});

t.test("the issue's typos are refused instead of played without the misspelt part", async (t) => {
  const app = await testApp(t);
  const cases: [string, Record<string, unknown>, string][] = [
    ['mistkaefer', { type: 'place', value: 2, stealfrom: [1] }, 'stealfrom'],
    ['pechvogel', { type: 'takeFromMiddle', value: 5 }, 'value'],
    ['porca-miseria', { type: 'slap', target: 'pig' }, 'target'],
  ];
  for (const [type, sent, field] of cases) {
    const { id, tokens } = await createGame(app, { type, seats: seatsOf(type), seed: 'typo' });
    const response = await command(app, id, tokens[0], { command: sent });
    t.equal(response.json().code, 'command/invalid', `${type}: ${JSON.stringify(sent)} refused`);
    t.same(response.json().unknownFields, [field]);
  }
});

t.test('the command envelope is strict too: a misspelt outcomes or seat is refused', async (t) => {
  const app = await testApp(t);
  const { id, referee } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], chance: 'supplied' });
  const response = await command(app, id, referee, { seat: 0, command: { type: 'throw' }, outcome: [7, 7, 7, 7, 7, 7, 7] });
  t.equal(response.statusCode, 400);
  t.equal(response.json().code, 'request/invalid');
  t.match(response.json().detail, /outcome/);
});
