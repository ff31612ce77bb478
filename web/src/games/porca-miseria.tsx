// Porca Miseria's table: the face-down stack, the revealed card, the three target
// cards (who holds each, and the stack of hands on the touch card's target), the
// jackpot, and each seat's winnings, score and lucky numbers.
import type { PorcaView } from '../../../src/domain/porca-miseria/view.ts';
import type { PorcaCommand } from '../../../src/domain/porca-miseria/commands.ts';
import type { PorcaEvent } from '../../../src/domain/porca-miseria/events.ts';
import type { Card } from '../../../src/domain/porca-miseria/vocabulary.ts';
import { list, plural, tableWidth, type GameUi, type TableProps } from './game.ts';
import { rowsOf, SeatPanel, wrapAt } from './seat-panel.tsx';

const symbols = ['mushroom', 'pig', 'sweep'] as const;
const symbolName = { mushroom: 'Mushroom', pig: 'Pig', sweep: 'Chimney sweep' } as const;
const shortName = { mushroom: 'Mushroom', pig: 'Pig', sweep: 'Sweep' } as const;

const cardWords = (card: Card): string =>
  card.kind === 'touch' ? `touch card ${symbolName[card.symbol]}` : `symbol card ${symbols.map((s) => `${card.counts[s]} ${s}`).join(', ')}`;

function Revealed({ card }: { card: Card | null }) {
  if (card === null) return <text x={205} y={90} text-anchor="middle" class="label">No card</text>;
  return (
    <g data-piece="revealed" data-card={card.id} data-kind={card.kind} transform="translate(150 14)">
      <rect width={110} height={150} rx={10} class="pm-card face" />
      {card.kind === 'touch' ? (
        <>
          <circle cx={55} cy={66} r={34} class={`pm-dot ${card.symbol}`} />
          <text x={55} y={126} text-anchor="middle" class={`pm-symbol ${card.symbol}`}>{shortName[card.symbol]}</text>
        </>
      ) : (
        symbols.map((s, i) => (
          <g data-symbol={s} data-count={card.counts[s]}>
            <circle cx={26} cy={34 + i * 42} r={14} class={`pm-dot ${s}`} />
            <text x={56} y={40 + i * 42} class="pm-count">× {card.counts[s]}</text>
          </g>
        ))
      )}
    </g>
  );
}

function Table({ view, names, you, narrow }: TableProps<PorcaView>) {
  const width = tableWidth(narrow);
  // Wide: stack, revealed card and the three targets in one row, the jackpot under the
  // stack. Narrow: the targets get a row of their own, the jackpot's cards wrap, and a
  // seat's winnings go under its name.
  const targetX = (i: number) => (narrow ? 14 + i * 124 : 290 + i * 140);
  const targetY = narrow ? 200 : 14;
  const targetWidth = narrow ? 116 : 120;
  const jackpotY = narrow ? 370 : 200;
  const jackpotPerRow = narrow ? 20 : 42;
  const top = jackpotY + 14 + rowsOf(view.jackpot.length, jackpotPerRow) * 32 + 4 + (narrow ? 0 : 22);
  const rowHeight = narrow ? 106 : 56;
  const height = top + view.winnings.length * (rowHeight + 6) + 4;
  const touchSymbol = view.card?.kind === 'touch' ? view.card.symbol : null;
  const summary = [
    `Stack: ${plural(view.stackSize, 'card')}; jackpot: ${plural(view.jackpot.length, 'card')}; phase ${view.phase}.`,
    view.card ? `Revealed: ${cardWords(view.card)}.` : '',
    ...view.targets.map((t) => `Target ${symbolName[t.symbol]}: ${t.heldBy === null ? 'free' : `held by ${names[t.heldBy]}`}.`),
    view.hands.length ? `Stack of hands, bottom first: ${view.hands.map((h) => names[h.seat]).join(', ')}.` : '',
    ...view.winnings.map((w, s) => `${names[s]}: ${plural(w.length, 'card')} won, score ${view.scores[s]}, lucky numbers ${view.luckyNumbers[s]?.join(', ')}.`),
  ].join(' ');
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="table-title table-desc" class="table pm" data-game="porca-miseria">
      <title id="table-title">Porca Miseria table</title>
      <desc id="table-desc">{summary}</desc>
      <rect width={width} height={height} class="felt" rx={12} />
      <g data-area="stack" data-count={view.stackSize} transform="translate(20 14)">
        {Array.from({ length: Math.min(6, Math.ceil(view.stackSize / 10)) }, (_, i) => <rect x={i * 2} y={-i * 2} width={110} height={150} rx={10} class="pm-card back" />)}
        <text x={55} y={172} text-anchor="middle" class="label">Stack {view.stackSize}</text>
      </g>
      <Revealed card={view.card} />
      <g data-area="jackpot" data-count={view.jackpot.length} transform={`translate(20 ${jackpotY})`}>
        <text y={14} class="label">Jackpot {view.jackpot.length}</text>
        {view.jackpot.map((_, i) => {
          const at = wrapAt(i, jackpotPerRow, 14, 32);
          return <rect x={100 + at.x} y={at.y} width={20} height={28} rx={3} class="pm-card mini" />;
        })}
      </g>
      {view.targets.map((target, i) => {
        const hands = touchSymbol === target.symbol ? view.hands : [];
        const middle = targetWidth / 2;
        return (
          <g data-area="target" data-symbol={target.symbol} data-held-by={target.heldBy ?? ''} transform={`translate(${targetX(i)} ${targetY})`}>
            <rect width={targetWidth} height={150} rx={10} class={`pm-target ${target.symbol}${target.heldBy !== null ? ' held' : ''}`} />
            <text x={middle} y={28} text-anchor="middle" class="name">{shortName[target.symbol]}</text>
            <text x={middle} y={140} text-anchor="middle" class="label">{target.heldBy === null ? 'free' : names[target.heldBy]}</text>
            {hands.map((hand, h) => (
              <g data-piece="hand" data-seat={hand.seat}>
                <ellipse cx={middle} cy={118 - h * 14} rx={34} ry={10} class="pm-hand" />
                <text x={middle} y={122 - h * 14} text-anchor="middle" class="hand-text">{names[hand.seat]?.slice(0, 8)}</text>
              </g>
            ))}
          </g>
        );
      })}
      {view.winnings.map((won, seat) => {
        const note = [view.startingSeat === seat ? '★ starts' : '', view.passed[seat] ? 'passed' : ''].filter(Boolean).join(' · ');
        const winningsY = narrow ? 52 : 8;
        return (
          <SeatPanel seat={seat} y={top + seat * (rowHeight + 6)} width={width - 20} height={rowHeight} name={names[seat]} nameWidth={narrow ? width - 44 : 150} you={you === seat} active={view.startingSeat === seat && view.phase !== 'over'} note={note} data={{ 'data-winnings': won.length }}>
            <text x={narrow ? 200 : 170} y={narrow ? 42 : 22} class="label" data-lucky={view.luckyNumbers[seat]?.join(',')}>Lucky {view.luckyNumbers[seat]?.join(' ')}</text>
            {won.slice(0, 30).map((_, i) => <rect x={(narrow ? 12 : 290) + i * 8} y={winningsY} width={14} height={24} rx={2} class="pm-card mini" />)}
            <text x={narrow ? 12 : width - 32} y={narrow ? 96 : 22} text-anchor={narrow ? 'start' : 'end'} class="label">Won {won.length}{view.compensation[seat]?.length ? ` +${view.compensation[seat]!.length}` : ''} · score {view.scores[seat]}</text>
          </SeatPanel>
        );
      })}
    </svg>
  );
}

const describe = (e: PorcaEvent, name: (seat: number) => string, edition: unknown): string => {
  const card = (id: string) => (edition as { cards: Card[] }).cards.find((c) => c.id === id);
  switch (e.type) {
    case 'GameStarted':
      return `The game begins; ${name(e.startingSeat)} reveals first`;
    case 'CardRevealed': {
      const c = card(e.card);
      return `${e.by === null ? 'Time is up: the server reveals' : `${name(e.by)} reveals`} ${c ? cardWords(c) : e.card}`;
    }
    case 'TargetGrabbed':
      return `${name(e.seat)} grabs the ${symbolName[e.target]}`;
    case 'HandSlapped':
      return `${name(e.seat)} slaps`;
    case 'Passed':
      return `${name(e.seat)} passes`;
    case 'WinningPaid':
      return `${name(e.seat)} wins a card for the ${symbolName[e.target]}`;
    case 'CompensationReceived':
      return `${name(e.seat)} keeps the ${symbolName[e.target]} target card`;
    case 'LossPaid':
      return `${name(e.seat)} grabbed wrongly and loses ${plural(e.cards.length, 'card')} to the jackpot`;
    case 'CardAddedToJackpot':
      return 'The card goes to the jackpot';
    case 'TouchCardWon':
      return `${name(e.seat)} wins the touch card${e.jackpot.length ? ` and ${plural(e.jackpot.length, 'jackpot card')}` : ''} (${e.by === 'sandwich' ? 'sandwich' : 'bottom hand'})`;
    case 'StartingPlayerChanged':
      return `${name(e.seat)} becomes the starting player${e.returnedToStack.length ? `; ${plural(e.returnedToStack.length, 'card')} go back into the stack` : ''}`;
    case 'GameEnded':
      return `Game over (${e.reason.replaceAll('-', ' ')})`;
  }
};

const label = (c: PorcaCommand): string => {
  switch (c.type) {
    case 'reveal':
      return 'Reveal (R)';
    case 'grab':
      return `Grab the ${symbolName[c.target]} (${symbols.indexOf(c.target) + 1})`;
    case 'slap':
      return 'Slap (Space)';
    case 'pass':
      return 'Pass (P)';
    case 'timeout':
      return 'Timeout';
  }
};

export const porcaMiseria: GameUi<PorcaView> = {
  Table,
  describe: (e, name, edition) => describe(e as PorcaEvent, name, edition),
  label: (c) => label(c as PorcaCommand),
  // The revealed card, a grabbed target, the jackpot; else the seat's own.
  newest: (e) => (e.type === 'CardRevealed' ? '[data-piece=revealed]' : e.type === 'TargetGrabbed' ? `[data-area=target][data-symbol="${String(e['target'])}"]` : e.type === 'CardAddedToJackpot' ? '[data-area=jackpot]' : e.type === 'HandSlapped' ? `[data-piece=hand][data-seat="${String(e['seat'])}"]` : undefined),
  keys: { r: { type: 'reveal' }, '1': { type: 'grab', target: 'mushroom' }, '2': { type: 'grab', target: 'pig' }, '3': { type: 'grab', target: 'sweep' }, ' ': { type: 'slap' }, p: { type: 'pass' } },
};
