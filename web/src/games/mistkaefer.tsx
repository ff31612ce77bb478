// Mistkäfer's table: every player's tableau (three rows with the white line, the
// bonus spaces and the white-chip columns), the dice in the middle, the dice just
// rolled, and the chips: face down, face up only for their owner (or in a replay).
import type { View } from '../../../src/domain/mistkaefer/view.ts';
import type { Edition } from '../../../src/domain/mistkaefer/edition.ts';
import type { Command } from '../../../src/domain/mistkaefer/commands.ts';
import type { Event } from '../../../src/domain/mistkaefer/events.ts';
import { list, plural, type GameUi, type TableProps } from './game.ts';

const colours = ['green', 'yellow', 'blue'] as const;
const bonusShort = { extraTurn: 'Turn', oneChip: '+1', twoChips: '+2', stealChip: 'Steal', stealChipFromEach: 'Each' } as const;
const bonusWords = { extraTurn: 'an extra turn', oneChip: 'one chip', twoChips: 'two chips', stealChip: 'steal a chip', stealChipFromEach: 'steal a chip from each' } as const;
const chipWords = { oneDungBall: 'one dung ball', twoDungBalls: 'two dung balls', cloverLeaf: 'clover leaf' } as const;
const chipGlyph = { oneDungBall: '●', twoDungBalls: '●●', cloverLeaf: '♣' } as const;

const Die = ({ x, y, value, colour, where }: { x: number; y: number; value: number | null; colour: string; where: string }) => (
  <g data-piece="die" data-colour={colour} data-value={value ?? ''} data-where={where} transform={`translate(${x} ${y})`}>
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

function Table({ view, names, you, edition }: TableProps<View>) {
  const ed = edition as Edition;
  const { rowLength, whiteLineAfter, whiteChipColumns, bonusSpaces } = ed.tableau;
  const cell = 32;
  const width = 720;
  const seatHeight = 3 * cell + 70;
  const top = 110;
  const height = top + view.seats * seatHeight + 10;
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
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="table-title table-desc" class="table mk" data-game="mistkaefer">
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
        <g transform="translate(360 14)" data-area="chip-supply" data-count={view.chipSupply.count}>
          <circle cx={12} cy={12} r={11} class="mk-chip down" />
          <text x={30} y={17} class="label">{view.chipSupply.count} chips face down</text>
        </g>
        <g data-area="rolled">
          <text x={360} y={58} class="label">{view.rolled ? `Rolled (${names[view.active]})` : view.phase === 'over' ? 'Game over' : `${names[view.active]} to play`}</text>
          {(view.rolled?.values ?? []).map((v, i) => <Die x={360 + i * 32} y={66} value={v} colour={view.rolled!.colour} where="rolled" />)}
          {view.bonuses.length ? <text x={520} y={84} class="label warn">Bonus: {view.bonuses.map((b) => bonusShort[b]).join(', ')}</text> : null}
        </g>
      </g>
      {view.tableaus.map((tableau, seat) => {
        const y = top + seat * seatHeight;
        const hand = view.hands[seat]!;
        const x0 = 110;
        return (
          <g data-seat={seat} data-area="player" transform={`translate(10 ${y})`}>
            <rect width={width - 20} height={seatHeight - 10} rx={8} class={view.active === seat && view.phase !== 'over' ? 'seat active' : 'seat'} />
            <text x={12} y={22} class="name">{names[seat]}</text>
            <text x={12} y={42} class="label">{[you === seat ? 'you' : '', view.winner === seat ? 'winner' : ''].filter(Boolean).join(' · ')}</text>
            {colours.map((colour, row) => (
              <g data-row={colour}>
                {Array.from({ length: rowLength }, (_, col) => {
                  const bonus = bonusSpaces[colour].find((b) => b.column === col + 1);
                  return (
                    <g transform={`translate(${x0 + col * cell} ${10 + row * cell})`}>
                      <rect width={cell - 2} height={cell - 2} rx={3} class={`space ${colour}`} data-bonus={bonus?.bonus ?? ''} />
                      {bonus ? <text x={(cell - 2) / 2} y={cell - 6} text-anchor="middle" class="bonus-text">{bonusShort[bonus.bonus]}</text> : null}
                    </g>
                  );
                })}
                {tableau[colour].map((value, col) => <Die x={x0 + col * cell + 2} y={12 + row * cell} value={value} colour={colour} where={`seat-${seat}`} />)}
              </g>
            ))}
            <line x1={x0 + whiteLineAfter * cell - 1} x2={x0 + whiteLineAfter * cell - 1} y1={6} y2={14 + 3 * cell} class="white-line" data-area="white-line" />
            {whiteChipColumns.map((column) => <circle cx={x0 + (column - 1) * cell + (cell - 2) / 2} cy={24 + 3 * cell} r={7} class="white-chip" data-area="white-chip" />)}
            <g data-area="chips" data-seat={seat} data-count={hand.count}>
              <text x={x0 + rowLength * cell + 14} y={22} class="label">Chips {hand.count}</text>
              {Array.from({ length: hand.count }, (_, i) => (
                <Chip x={x0 + rowLength * cell + 14 + (i % 8) * 26} y={30 + Math.floor(i / 8) * 26} kind={hand.kinds?.[i] ?? null} where={`seat-${seat}`} />
              ))}
            </g>
          </g>
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
};
