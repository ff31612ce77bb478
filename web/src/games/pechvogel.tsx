// Pechvogel's table: the middle's score markers, the board with the target dice,
// ravens and frustrations of the turn, the dice still to throw, and each player's
// markers, frustrations and Murphy.
import type { PechvogelView } from '../../../src/domain/pechvogel/view.ts';
import type { PechvogelCommand } from '../../../src/domain/pechvogel/commands.ts';
import type { PechvogelEvent } from '../../../src/domain/pechvogel/events.ts';
import { list, plural, seatPanel, tableWidth, type GameUi, type TableProps } from './game.ts';
import { rowsOf, SeatPanel, wrapAt } from './seat-panel.tsx';

type Face = number | 'raven';
const faceWord = (face: Face) => (face === 'raven' ? 'raven' : String(face));

function Die({ x, y, face, size = 34, ghost = false }: { x: number; y: number; face: Face | null; size?: number; ghost?: boolean }) {
  const raven = face === 'raven';
  return (
    <g data-piece="die" data-face={face === null ? 'unthrown' : String(face)} transform={`translate(${x} ${y})`}>
      <rect width={size} height={size} rx={6} class={ghost ? 'die ghost' : raven ? 'die raven' : 'die'} />
      <text x={size / 2} y={size / 2 + 6} text-anchor="middle" class={raven ? 'die-text light' : 'die-text'}>
        {face === null ? '' : raven ? 'R' : face}
      </text>
    </g>
  );
}

function Marker({ x, y, value, where }: { x: number; y: number; value: number; where: string }) {
  return (
    <g data-piece="marker" data-where={where} data-value={value} transform={`translate(${x} ${y})`}>
      <circle cx={13} cy={13} r={13} class={`marker m${value}`} />
      <text x={13} y={18} text-anchor="middle" class="marker-text">{value}</text>
    </g>
  );
}

const Frustration = ({ x, y, where }: { x: number; y: number; where: string }) => (
  <g data-piece="frustration" data-where={where} transform={`translate(${x} ${y})`}>
    <path d="M0 18 L10 0 L20 18 Z" class="frustration" />
  </g>
);

function Table({ view, names, you, narrow }: TableProps<PechvogelView>) {
  const turn = view.turn;
  const width = tableWidth(narrow);
  const boardDice: Face[] = turn === null ? [] : [...Array<Face>(turn.targetsOnBoard).fill(turn.target ?? 0), ...Array<Face>(turn.ravensOnBoard).fill('raven')];
  // Wide: the middle on one line, board and cup side by side. Narrow: the middle's
  // markers wrap, the box, the cup and the last throw each get a line below.
  const middlePerRow = narrow ? 10 : 20;
  const middleRows = rowsOf(view.middle.length, middlePerRow);
  const boxY = narrow ? 28 + middleRows * 30 : 28;
  const boardY = narrow ? boxY + 14 : 52;
  const boardWidth = narrow ? width - 20 : 460;
  const cup = narrow ? { x: 10, y: boardY + 100, width: width - 20 } : { x: 480, y: 52, width: 230 };
  const cupPerRow = narrow ? 10 : 6;
  const cupHeight = 40 + rowsOf(turn?.remaining ?? 0, cupPerRow) * 30 + 22;
  const lastY = narrow ? cup.y + cupHeight + 8 : 152;
  const lastDiceX = narrow ? 20 : 120;
  const lastDiceY = narrow ? lastY + 28 : lastY;
  const reaction = narrow ? { x: 20, y: lastDiceY + 52 } : { x: 450, y: lastY + 20 };
  const playersTop = narrow ? reaction.y + 14 : 240;
  // A seat's markers start after its name; narrow, they wrap and the frustrations go under them.
  const markersX = narrow ? 100 : 150;
  const markersPerRow = narrow ? 9 : 12;
  const frustrationsPerRow = narrow ? 12 : 8;
  const seatLayout = view.players.map((p) => {
    const markerRows = rowsOf(p.markers.length, markersPerRow);
    const frustrationsY = narrow ? 14 + markerRows * 30 + 20 : 30;
    const frustrationsBottom = frustrationsY + rowsOf(p.frustrations, frustrationsPerRow) * 22 + 4;
    const height = narrow ? frustrationsBottom : Math.max(56, 14 + markerRows * 30 + 12, frustrationsBottom);
    return { frustrationsY, height };
  });
  const seatY = seatLayout.reduce<number[]>((ys, l, i) => [...ys, ys[i]! + l.height + 8], [playersTop]);
  const height = seatY[view.players.length]! + 2;
  const summary = [
    `Middle: ${view.middle.length ? view.middle.join(', ') : 'empty'}; ${plural(view.box.length, 'marker')} in the box.`,
    turn === null
      ? 'No turn in progress.'
      : `${names[turn.seat]}'s turn, throw ${turn.throws}; target ${turn.target ?? 'not chosen'}; on the board ${plural(turn.targetsOnBoard, 'target die', 'target dice')}, ${plural(turn.ravensOnBoard, 'raven')} and ${plural(turn.frustraters.length, 'frustration')}; ${plural(turn.remaining, 'die', 'dice')} left to throw${turn.last ? `; last throw ${turn.last.faces.map(faceWord).join(', ')}` : ''}.`,
    ...view.players.map((p, s) => `${names[s]}: markers ${p.markers.length ? p.markers.join(', ') : 'none'}, ${plural(p.frustrations, 'frustration')}${view.murphy === s ? ', holds Murphy' : ''}.`),
  ].join(' ');
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="table-title table-desc" class="table pechvogel" data-game="pechvogel">
      <title id="table-title">Pechvogel table</title>
      <desc id="table-desc">{summary}</desc>
      <rect width={width} height={height} class="felt" rx={12} />
      <g data-area="middle">
        <text x={16} y={28} class="label">Middle</text>
        {view.middle.map((v, i) => {
          const at = wrapAt(i, middlePerRow, 30, 30);
          return <Marker x={90 + at.x} y={10 + at.y} value={v} where="middle" />;
        })}
        <text x={narrow ? 16 : 560} y={boxY} class="label" data-area="box">Box: {view.box.length}</text>
      </g>
      <g data-area="board">
        <rect x={10} y={boardY} width={boardWidth} height={92} rx={10} class="board" />
        <text x={20} y={boardY + 20} class="label">Board{turn?.target != null ? ` · target ${turn.target}` : ''}</text>
        {boardDice.map((face, i) => <Die x={20 + i * 40} y={boardY + 32} face={face} />)}
        {turn?.frustraters.map((_, i) => <Frustration x={20 + (boardDice.length + i) * 40 + 6} y={boardY + 40} where="board" />)}
      </g>
      <g data-area="cup">
        <rect x={cup.x} y={cup.y} width={cup.width} height={narrow ? cupHeight : 92} rx={10} class="cup" />
        <text x={cup.x + 10} y={cup.y + 20} class="label">To throw: {turn?.remaining ?? 0}</text>
        {Array.from({ length: turn?.remaining ?? 0 }, (_, i) => {
          const at = wrapAt(i, cupPerRow, 36, 30);
          return <Die x={cup.x + 10 + at.x} y={cup.y + 32 + at.y} face={null} size={30} ghost />;
        })}
      </g>
      <g data-area="last-throw">
        <text x={20} y={lastY + 20} class="label">Last throw</text>
        {(turn?.last?.faces ?? []).map((face, i) => <Die x={lastDiceX + i * 40} y={lastDiceY} face={face} size={30} />)}
        {turn?.reaction ? <text x={reaction.x} y={reaction.y} class="label warn">Reaction window open</text> : null}
      </g>
      {view.players.map((player, seat) => {
        const { frustrationsY, height } = seatLayout[seat]!;
        return (
          <SeatPanel seat={seat} y={seatY[seat]!} width={width - 20} height={height} name={names[seat]} nameWidth={markersX - 20} you={you === seat} active={turn?.seat === seat}>
            {view.murphy === seat ? (
              <g data-piece="murphy"><rect x={10} y={30} width={70} height={20} rx={4} class="murphy" /><text x={45} y={45} text-anchor="middle" class="murphy-text">Murphy</text></g>
            ) : null}
            {player.markers.map((v, i) => {
              const at = wrapAt(i, markersPerRow, 30, 30);
              return <Marker x={markersX + at.x} y={14 + at.y} value={v} where={`seat-${seat}`} />;
            })}
            <text x={narrow ? 12 : 520} y={narrow ? frustrationsY + 14 : 22} class="label">Frustrations</text>
            {Array.from({ length: player.frustrations }, (_, i) => {
              const at = wrapAt(i, frustrationsPerRow, 22, 22);
              return <Frustration x={(narrow ? markersX : 520) + at.x} y={frustrationsY + at.y} where={`seat-${seat}`} />;
            })}
          </SeatPanel>
        );
      })}
    </svg>
  );
}

function describe(e: PechvogelEvent, name: (seat: number) => string): string {
  switch (e.type) {
    case 'TurnStarted':
      return `${name(e.seat)} begins`;
    case 'DiceThrown':
      return `${name(e.seat)} ${e.reroll ? 'rerolls' : 'throws'} ${e.faces.map(faceWord).join(', ')}`;
    case 'TargetChosen':
      return `${name(e.seat)} keeps the ${e.target}s as target`;
    case 'Passed':
      return `${name(e.seat)} passes`;
    case 'FrustrationReduced':
      return `${name(e.seat)} returns a frustration to reroll`;
    case 'FrustrationStarted':
      return `${name(e.seat)} frustrates the throw`;
    case 'FrustrationJoined':
      return `${name(e.seat)} joins the frustration`;
    case 'ReactionClosed':
      return e.timedOut ? 'Time is up for reactions' : 'Reactions are closed';
    case 'TurnEnded': {
      const parts: string[] = [];
      if (e.marker) parts.push(e.marker.from === null ? `takes a ${e.marker.value} from the middle` : `steals a ${e.marker.value} from ${name(e.marker.from)}`);
      if (e.boxed !== null) parts.push(`boxes a ${e.boxed}`);
      if (e.murphy) parts.push('gets Murphy for being greedy');
      const taken = e.frustrationsTaken.fromBoard + e.frustrationsTaken.fromSupply;
      if (taken > 0) parts.push(`takes ${plural(taken, 'frustration')}`);
      if (e.repaid.length) parts.push(`repays ${list(e.repaid.map((r) => name(r.seat)))}`);
      const next = e.nextSeat === null ? 'the middle is empty: game over' : `${name(e.nextSeat)} is next`;
      return `${name(e.seat)} ${parts.length ? list(parts) : 'ends the turn empty-handed'}; ${next}`;
    }
  }
}

function label(c: PechvogelCommand, view: PechvogelView, name: (seat: number) => string): string {
  switch (c.type) {
    case 'throw':
      return view.turn?.rerollDue ? 'Reroll' : 'Throw';
    case 'chooseTarget':
      return `Keep the ${c.target}s`;
    case 'reduce':
      return 'Return a frustration and reroll';
    case 'frustrate':
      return view.turn?.reaction?.joining ? 'Join the frustration' : 'Frustrate';
    case 'pass':
      return 'Pass';
    case 'takeFromMiddle':
      return 'Take the marker from the middle';
    case 'steal':
      return `Steal from ${name(c.from)}, box a ${c.returnToBox}`;
    case 'timeout':
      return 'Timeout';
  }
}

export const pechvogel: GameUi<PechvogelView> = {
  Table,
  describe: (e, name) => describe(e as PechvogelEvent, name),
  label: (c, view, name) => label(c as PechvogelCommand, view, name),
  // A throw lands on the last throw, a kept target on the board; the rest is a seat's.
  newest: (e) => (e.type === 'DiceThrown' || e.type === 'ReactionClosed' ? '[data-area=last-throw]' : e.type === 'TargetChosen' ? '[data-area=board]' : e.type === 'TurnEnded' ? seatPanel(e['seat'] as number) : undefined),
};
