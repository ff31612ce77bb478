// Complete random games: every legal command is accepted, games end with a result,
// every event and view is plain JSON that validates, and folding the log gives the
// same state.
import t from 'tap';
import { fold, isViolation } from '../../../src/domain/contract.ts';
import { serverChance } from '../../../src/domain/chance.ts';
import type { Event } from '../../../src/domain/fackel-und-keule/index.ts';
import { game } from './helpers.ts';

const play = (seats: number, seed: string) => {
  const setup = { options: game.optionsSchema.parse({}), seats };
  let state = game.initialState(setup);
  const log: Event[] = [...game.setup(state, { now: 0, chance: serverChance(seed, 0) })];
  state = log.reduce(game.evolve, state);
  for (let i = 1; game.result(state) === null; i++) {
    if (i > 5000) throw new Error('game did not end');
    const pick = serverChance(`${seed}:pick`, i);
    // Without a time limit only seats move the game on, so until it ends someone must
    // be waited for (timeouts are timeout.test.ts's).
    const { seats: pending } = game.pending(state);
    if (pending.length === 0) throw new Error('nobody is waited for, yet the game is not over');
    const [seat] = pick.draw(pending, 1);
    const [command] = pick.draw(game.legalCommands(state, seat!), 1);
    const out = game.decide(state, command!, { actor: { kind: 'seat', seat: seat! }, now: 0, chance: serverChance(seed, i) });
    if (isViolation(out)) throw new Error(`${out.code}: ${out.message}`);
    for (const e of out) game.eventSchema.parse(e);
    log.push(...out);
    state = out.reduce(game.evolve, state);
  }
  return { setup, state, log };
};

let reshuffles = 0;
const table: Record<number, number> = { 3: 3, 4: 3, 5: 2 };

for (const seats of [3, 4, 5]) {
  for (const seed of ['a', 'b', 'c']) {
    t.test(`a random ${seats}-player game (seed ${seed}) ends and replays`, async (t) => {
      const { setup, state, log } = play(seats, seed);
      const result = game.result(state)!;
      t.equal(result.scores.length, seats);
      t.ok(result.winners.length >= 1);
      t.same(fold(game, setup, log), state, 'folding the log gives the same state');
      t.same(JSON.parse(JSON.stringify(state)), state, 'state is plain JSON');
      t.equal(log.filter((e) => e.type === 'AnimalRevealed').length, 12);
      const animals = log.flatMap((e) => (e.type === 'AnimalRevealed' ? [e.animal] : []));
      t.equal(new Set(animals).size, 12, 'each animal card is removed from the game after its round');
      const chips = state.chips.reduce((n, c) => n + c.teeth + c.fur + c.meat + c.skull, 0);
      const supply = state.supply.teeth + state.supply.fur + state.supply.meat + state.supply.skull;
      t.equal(chips + supply, 92, 'no chip is created or lost');
      t.equal(state.hands.flat().length + state.drawPile.length + state.discardPile.length, 46, 'no card is lost');
      // After each of rounds 1–11 every seat draws the table's number of cards (the
      // discard pile becoming the draw pile when needed); after round 12 nobody draws.
      const ends = log.flatMap((e, i) => (e.type === 'RoundEnded' ? [i] : []));
      t.equal(ends.length, 12);
      ends.forEach((at, r) => {
        const until = ends[r + 1] ?? log.length;
        const drawn = log.slice(at, until).filter((e) => e.type === 'CardsDrawn');
        t.equal(drawn.reduce((n, e) => n + (e.type === 'CardsDrawn' ? e.count : 0), 0), r === 11 ? 0 : seats * table[seats]!);
      });
      reshuffles += log.filter((e) => e.type === 'DiscardPileReshuffled').length;
      t.equal(log.at(-1)!.type, 'GameEnded');
      for (const viewer of [{ kind: 'seat', seat: 0 } as const, { kind: 'spectator' } as const]) {
        for (const e of log) game.eventSchema.parse(game.redact(e, viewer, state));
      }
    });
  }
}

t.test('some random games ran through the draw pile and reshuffled', async (t) => {
  t.ok(reshuffles > 0);
});
