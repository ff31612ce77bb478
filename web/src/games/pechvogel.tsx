// Pechvogel's table: the middle's score markers, the board with the target dice,
// ravens and frustrations of the turn, the dice still to throw, and each player's
// markers, frustrations and Murphy.
import type { PechvogelView } from '../../../src/domain/pechvogel/view.ts';
import type { PechvogelCommand } from '../../../src/domain/pechvogel/commands.ts';
import type { PechvogelEvent } from '../../../src/domain/pechvogel/events.ts';
import { list, plural, type GameUi, type TableProps } from './game.ts';

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

function Table({ view, names }: TableProps<PechvogelView>) {
  const turn = view.turn;
  const width = 720;
  const rowHeight = 64;
  const playersTop = 240;
  const height = playersTop + view.players.length * rowHeight + 10;
  const boardDice: Face[] = turn === null ? [] : [...Array<Face>(turn.targetsOnBoard).fill(turn.target ?? 0), ...Array<Face>(turn.ravensOnBoard).fill('raven')];
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
        {view.middle.map((v, i) => <Marker x={90 + i * 30} y={10} value={v} where="middle" />)}
        <text x={560} y={28} class="label" data-area="box">Box: {view.box.length}</text>
      </g>
      <g data-area="board">
        <rect x={10} y={52} width={460} height={92} rx={10} class="board" />
        <text x={20} y={72} class="label">Board{turn?.target != null ? ` · target ${turn.target}` : ''}</text>
        {boardDice.map((face, i) => <Die x={20 + i * 40} y={84} face={face} />)}
        {turn?.frustraters.map((_, i) => <Frustration x={20 + (boardDice.length + i) * 40 + 6} y={92} where="board" />)}
      </g>
      <g data-area="cup">
        <rect x={480} y={52} width={230} height={92} rx={10} class="cup" />
        <text x={490} y={72} class="label">To throw: {turn?.remaining ?? 0}</text>
        {Array.from({ length: turn?.remaining ?? 0 }, (_, i) => <Die x={490 + (i % 6) * 36} y={84 + Math.floor(i / 6) * 30} face={null} size={30} ghost />)}
      </g>
      <g data-area="last-throw">
        <text x={20} y={172} class="label">Last throw</text>
        {(turn?.last?.faces ?? []).map((face, i) => <Die x={120 + i * 40} y={152} face={face} size={30} />)}
        {turn?.reaction ? <text x={450} y={172} class="label warn">Reaction window open</text> : null}
      </g>
      {view.players.map((player, seat) => {
        const y = playersTop + seat * rowHeight;
        const active = turn?.seat === seat;
        return (
          <g data-seat={seat} data-area="player" transform={`translate(10 ${y})`}>
            <rect width={width - 20} height={rowHeight - 8} rx={8} class={active ? 'seat active' : 'seat'} />
            <text x={12} y={22} class="name">{names[seat]}</text>
            {view.murphy === seat ? (
              <g data-piece="murphy"><rect x={10} y={30} width={70} height={20} rx={4} class="murphy" /><text x={45} y={45} text-anchor="middle" class="murphy-text">Murphy</text></g>
            ) : null}
            {player.markers.map((v, i) => <Marker x={150 + i * 30} y={14} value={v} where={`seat-${seat}`} />)}
            <text x={520} y={22} class="label">Frustrations</text>
            {Array.from({ length: player.frustrations }, (_, i) => <Frustration x={520 + (i % 8) * 22} y={30} where={`seat-${seat}`} />)}
          </g>
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
};
