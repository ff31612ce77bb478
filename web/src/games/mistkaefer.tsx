// Mistkäfer's table: every player's tableau (three rows with the white line, the
// bonus spaces and the white-chip columns), the dice in the middle, the dice just
// rolled, and the chips: face down, face up only for their owner (or in a replay).
import type { JSX } from 'preact';
import type { View } from '../../../src/domain/mistkaefer/view.ts';
import type { Edition } from '../../../src/domain/mistkaefer/edition.ts';
import type { Command } from '../../../src/domain/mistkaefer/commands.ts';
import type { Event } from '../../../src/domain/mistkaefer/events.ts';
import type { Command as AnyCommand } from '../api.ts';
import { list, pieceButton, plural, tableWidth, type GameUi, type TableProps } from './game.ts';
import { rowsOf, SeatPanel, wrapAt } from './seat-panel.tsx';

const colours = ['green', 'yellow', 'blue'] as const;
const bonusShort = { extraTurn: 'Turn', oneChip: '+1', twoChips: '+2', stealChip: 'Steal', stealChipFromEach: 'Each' } as const;
const bonusWords = { extraTurn: 'an extra turn', oneChip: 'one chip', twoChips: 'two chips', stealChip: 'steal a chip', stealChipFromEach: 'steal a chip from each' } as const;
const chipWords = { oneDungBall: 'one dung ball', twoDungBalls: 'two dung balls', cloverLeaf: 'clover leaf' } as const;
const chipGlyph = { oneDungBall: '●', twoDungBalls: '●●', cloverLeaf: '♣' } as const;

const Die = ({ x, y, value, colour, where, button }: { x: number; y: number; value: number | null; colour: string; where: string; button?: JSX.SVGAttributes<SVGGElement> | undefined }) => (
  <g data-piece="die" data-colour={colour} data-value={value ?? ''} data-where={where} transform={`translate(${x} ${y})`} {...button}>
    <rect width={26} height={26} rx={5} class={`mk-die ${colour}`} />
    <text x={13} y={18} text-anchor="middle" class="die-text">{value ?? ''}</text>
  </g>
);

function Chip({ x, y, kind, where }: { x: number; y: number; kind: keyof typeof chipGlyph | null; where: string }) {
  return (
    <g data-piece="chip" data-face={kind ?? 'down'} data-where={where} transform={`translate(${x} ${y})`}>
      <circle cx={12} cy={12} r={11} class={kind === null ? 'mk-chip down' : `mk-chip ${kind}`} />
      {kind === null ? null : <text x={12} y={16} text-anchor="middle" class="chip-text">{chipGlyph[kind]}</text>}
    </g>
  );
}

/** Where the dice will be rolled, the rolls a seat may make: "2 ×" a colour's die
 * takes that many dice of the colour from the middle and rolls them. */
function Rolls({ act, x, y }: { act: TableProps<View>['act']; x: number; y: number }) {
  const rolls = (act?.legal ?? []).filter((c): c is Extract<Command, { type: 'roll' }> => c.type === 'roll');
  return (
    <g data-area="roll-choices">
      {rolls.map((c, i) => (
        <g transform={`translate(${x + i * 30} ${y})`} data-roll={`${c.colour}-${c.count}`} {...pieceButton(`Roll ${plural(c.count, `${c.colour} die`, `${c.colour} dice`)}`, () => act!.send(c))}>
          <rect width={26} height={26} rx={5} class={`mk-die ${c.colour}`} />
          <text x={13} y={18} text-anchor="middle" class="die-text">{c.count}</text>
        </g>
      ))}
    </g>
  );
}

/** Rolls are the dice drawn where dice land; a rolled die places every die showing its
 * value, so a placement that steals is left to the buttons. */
const onTable = (c: AnyCommand): boolean => c.type === 'roll' || (c.type === 'place' && !(c['stealFrom'] as unknown[] | undefined)?.length);

function Table({ view, names, you, edition, narrow, act }: TableProps<View>) {
  const ed = edition as Edition;
  const { rowLength, whiteLineAfter, whiteChipColumns, bonusSpaces } = ed.tableau;
  const cell = 32;
  const width = tableWidth(narrow);
  // Wide: the chip supply and the dice just rolled beside the dice in the middle, each
  // seat's chips beside its rows. Narrow: each on a line of its own, the chips under the rows.
  const chipSupply = narrow ? { x: 16, y: 74 } : { x: 360, y: 14 };
  const rolledY = narrow ? 120 : 58;
  const top = narrow ? 196 : 110;
  const x0 = narrow ? 12 : 110;
  const rowsTop = narrow ? 50 : 10;
  const chipsX = narrow ? 12 : x0 + rowLength * cell + 14;
  const chipsY = narrow ? rowsTop + 3 * cell + 30 : 10;
  const chipsPerRow = narrow ? 13 : 8;
  const seatHeights = view.hands.map((h) => (narrow ? chipsY + 20 + rowsOf(h.count, chipsPerRow) * 26 : Math.max(3 * cell + 60, chipsY + 20 + rowsOf(h.count, chipsPerRow) * 26 + 6)));
  const seatY = seatHeights.reduce<number[]>((ys, h, i) => [...ys, ys[i]! + h + 10], [top]);
  const height = seatY[view.seats]! + 2;
  const summary = [
    `Dice in the middle: ${colours.map((c) => `${view.dice[c]} ${c}`).join(', ')}; ${plural(view.chipSupply.count, 'chip')} face down in the supply.`,
    view.rolled ? `${names[view.active]} rolled ${view.rolled.colour} ${view.rolled.values.join(', ')}.` : '',
    view.bonuses.length ? `Bonuses to resolve: ${list(view.bonuses.map((b) => bonusWords[b]))}.` : '',
    ...view.tableaus.map((t, s) => {
      const hand = view.hands[s]!;
      const chips = hand.kinds ? hand.kinds.map((k) => chipWords[k]).join(', ') || 'none' : `${plural(hand.count, 'chip')} face down`;
      return `${names[s]}: ${colours.map((c) => `${c} ${t[c].length ? t[c].join(' ') : 'empty'}`).join('; ')}; chips ${chips}.`;
    }),
  ].join(' ');
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role={act ? "group" : "img"} aria-labelledby="table-title table-desc" class="table mk" data-game="mistkaefer">
      <title id="table-title">Mistkäfer table</title>
      <desc id="table-desc">{summary}</desc>
      <rect width={width} height={height} class="felt" rx={12} />
      <g data-area="supply">
        <text x={16} y={28} class="label">Dice in the middle</text>
        {colours.map((c, i) => (
          <g data-area={`supply-${c}`} data-count={view.dice[c]} transform={`translate(${16 + i * 110} 38)`}>
            <rect width={26} height={26} rx={5} class={`mk-die ${c}`} />
            <text x={34} y={18} class="label">× {view.dice[c]}</text>
          </g>
        ))}
        <g transform={`translate(${chipSupply.x} ${chipSupply.y})`} data-area="chip-supply" data-count={view.chipSupply.count}>
          <circle cx={12} cy={12} r={11} class="mk-chip down" />
          <text x={30} y={17} class="label">{view.chipSupply.count} chips face down</text>
        </g>
        <g data-area="rolled">
          <text x={narrow ? 16 : 360} y={rolledY} class="label">{view.rolled ? `Rolled (${names[view.active]})` : view.phase === 'over' ? 'Game over' : `${names[view.active]} to play`}</text>
          {(view.rolled?.values ?? []).map((v, i) => {
            const place = act?.legal.find((c) => c.type === 'place' && c['value'] === v && onTable(c));
            return <Die x={(narrow ? 16 : 360) + i * 32} y={rolledY + 8} value={v} colour={view.rolled!.colour} where="rolled" button={place && act ? pieceButton(`Place the ${v}s`, () => act.send(place)) : undefined} />;
          })}
          {view.rolled ? null : <Rolls act={act} x={narrow ? 16 : 360} y={rolledY + 8} />}
          {view.bonuses.length ? <text x={narrow ? 16 : 520} y={narrow ? rolledY + 56 : 84} class="label warn">Bonus: {view.bonuses.map((b) => bonusShort[b]).join(', ')}</text> : null}
        </g>
      </g>
      {view.tableaus.map((tableau, seat) => {
        const hand = view.hands[seat]!;
        return (
          <SeatPanel seat={seat} y={seatY[seat]!} width={width - 20} height={seatHeights[seat]!} name={names[seat]} nameWidth={narrow ? width - 44 : x0 - 20} you={you === seat} active={view.active === seat && view.phase !== 'over'} {...(view.winner === seat ? { note: 'winner' } : {})}>
            {colours.map((colour, row) => (
              <g data-row={colour}>
                {Array.from({ length: rowLength }, (_, col) => {
                  const bonus = bonusSpaces[colour].find((b) => b.column === col + 1);
                  return (
                    <g transform={`translate(${x0 + col * cell} ${rowsTop + row * cell})`}>
                      <rect width={cell - 2} height={cell - 2} rx={3} class={`space ${colour}`} data-bonus={bonus?.bonus ?? ''} />
                      {bonus ? <text x={(cell - 2) / 2} y={cell - 6} text-anchor="middle" class="bonus-text">{bonusShort[bonus.bonus]}</text> : null}
                    </g>
                  );
                })}
                {tableau[colour].map((value, col) => <Die x={x0 + col * cell + 2} y={rowsTop + 2 + row * cell} value={value} colour={colour} where={`seat-${seat}`} />)}
              </g>
            ))}
            <line x1={x0 + whiteLineAfter * cell - 1} x2={x0 + whiteLineAfter * cell - 1} y1={rowsTop - 4} y2={rowsTop + 4 + 3 * cell} class="white-line" data-area="white-line" />
            {whiteChipColumns.map((column) => <circle cx={x0 + (column - 1) * cell + (cell - 2) / 2} cy={rowsTop + 14 + 3 * cell} r={7} class="white-chip" data-area="white-chip" />)}
            <g data-area="chips" data-seat={seat} data-count={hand.count}>
              <text x={chipsX} y={chipsY + 12} class="label">Chips {hand.count}</text>
              {Array.from({ length: hand.count }, (_, i) => {
                const at = wrapAt(i, chipsPerRow, 26, 26);
                return <Chip x={chipsX + at.x} y={chipsY + 20 + at.y} kind={hand.kinds?.[i] ?? null} where={`seat-${seat}`} />;
              })}
            </g>
          </SeatPanel>
        );
      })}
    </svg>
  );
}

const describe = (e: Event, name: (seat: number) => string): string => {
  switch (e.type) {
    case 'GameStarted':
      return `The game begins with ${e.seats} players; ${name(e.firstSeat)} starts`;
    case 'DiceRolled':
      return `${name(e.seat)} rolls ${plural(e.values.length, `${e.colour} die`, `${e.colour} dice`)}: ${e.values.join(', ')}`;
    case 'DicePlaced':
      return `${name(e.seat)} places ${plural(e.count, 'die', 'dice')} showing ${e.value}${e.stolenFrom.length ? `, stealing from ${list(e.stolenFrom.map(name))}` : ''}${e.bonuses.length ? ` onto ${list(e.bonuses.map((b) => bonusWords[b]))}` : ''}`;
    case 'BadLuck':
      return `Bad luck for ${name(e.seat)}: no ${e.colour} die fits`;
    case 'BonusResolved':
      return `${name(e.seat)} takes the bonus: ${bonusWords[e.bonus]}`;
    case 'ChipsTaken':
      return `${name(e.seat)} takes ${plural(e.count, 'chip')}${e.chips ? ` (${e.chips.map((c) => chipWords[c]).join(', ')})` : ''}`;
    case 'ChipStolen':
      return `${name(e.thief)} steals a chip from ${name(e.victim)}${e.chip ? ` (${chipWords[e.chip]})` : ''}`;
    case 'TableauScored':
      return `${name(e.seat)} scores ${plural(e.completeColumns, 'complete column')} and ${plural(e.diceRightOfLine, 'die', 'dice')} right of the line`;
    case 'TurnEnded':
      return e.next === e.seat ? `${name(e.seat)} plays again` : `${name(e.next)}'s turn`;
    case 'GameWon':
      return `${name(e.seat)} wins`;
  }
};

const label = (c: Command, _view: View, name: (seat: number) => string): string => {
  switch (c.type) {
    case 'roll':
      return `Roll ${plural(c.count, `${c.colour} die`, `${c.colour} dice`)}`;
    case 'place':
      return `Place the ${c.value}s${c.stealFrom?.length ? `, steal from ${list(c.stealFrom.map(name))}` : ''}`;
    case 'resolveBonus':
      return `Bonus: ${bonusWords[c.bonus]}${c.victim != null ? ` from ${name(c.victim)}` : ''}`;
    case 'score':
      return 'Score the tableau';
  }
};

export const mistkaefer: GameUi<View> = {
  Table,
  describe: (e, name) => describe(e as Event, name),
  label: (c, view, name) => label(c as Command, view, name),
  onTable,
  // Rolled dice lie in the rolled area; a placement, a bonus or chips are the seat's.
  newest: (e) => (e.type === 'DiceRolled' ? '[data-area=rolled]' : e.type === 'GameStarted' ? null : undefined),
};
