// The edition's tableau fits the rulebook, and the schemas are plain JSON Schema.
import t from 'tap';
import { z } from 'zod';
import { mistkaefer } from '../../../src/domain/mistkaefer/index.ts';
import { edition } from '../../../src/domain/mistkaefer/edition.ts';
import { bonusKinds, colours } from '../../../src/domain/mistkaefer/vocabulary.ts';

t.test('the tableau holds every die of a colour, so a row never overflows', async (t) => {
  t.ok(edition.tableau.rowLength >= edition.dicePerColour);
});

t.test('die faces are listed lowest first (legalCommands offers values in that order)', async (t) => {
  t.same(edition.dieFaces, [...edition.dieFaces].sort((a, b) => a - b));
  t.equal(new Set(edition.dieFaces).size, edition.dieFaces.length);
});

t.test('the white chips lie under the 1st and 2nd columns, left of the white line', async (t) => {
  t.same(edition.tableau.whiteChipColumns, [1, 2]);
  t.ok(edition.tableau.whiteLineAfter >= 2 && edition.tableau.whiteLineAfter < edition.tableau.rowLength);
});

t.test('every kind of bonus space appears; spaces lie inside their rows, one per column', async (t) => {
  const all = colours.flatMap((c) => edition.tableau.bonusSpaces[c]);
  t.same([...new Set(all.map((s) => s.bonus))].sort(), [...bonusKinds].sort());
  for (const c of colours) {
    const columns = edition.tableau.bonusSpaces[c].map((s) => s.column);
    t.ok(columns.every((col) => col >= 1 && col <= edition.tableau.rowLength), `${c} spaces in the row`);
    t.equal(new Set(columns).size, columns.length, `${c}: one bonus per space`);
  }
});

t.test('components: 27 dice, 48 chips, and the removals for 3 and 2 players', async (t) => {
  t.equal(colours.length * edition.dicePerColour, 27);
  t.same(edition.chips, { oneDungBall: 26, twoDungBalls: 13, cloverLeaf: 9 });
  const started = (seats: number) => mistkaefer.setup(mistkaefer.initialState({ seats, options: {} }), {
    now: 0,
    chance: { roll: () => [], draw: () => [], secret: () => '' },
  })[0];
  t.match(started(3), { dice: { green: 8, yellow: 8, blue: 8 }, chips: { cloverLeaf: 8, oneDungBall: 26 } });
  t.match(started(2), { dice: { green: 6, yellow: 6, blue: 6 }, chips: { cloverLeaf: 6, twoDungBalls: 13 } });
  t.match(started(4), { dice: { green: 9 }, chips: { cloverLeaf: 9 }, firstSeat: 0 });
});

t.test('options default to {} and every schema converts to JSON Schema', async (t) => {
  t.same(mistkaefer.optionsSchema.parse({}), {});
  for (const schema of [mistkaefer.optionsSchema, mistkaefer.commandSchema, mistkaefer.eventSchema]) {
    t.doesNotThrow(() => z.toJSONSchema(schema));
  }
  t.same(mistkaefer.commandSchema.parse({ type: 'place', value: 3 }), { type: 'place', value: 3, stealFrom: [] });
  t.doesNotThrow(() => JSON.parse(JSON.stringify(mistkaefer.edition)));
});
