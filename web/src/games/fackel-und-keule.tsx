// Fackel+Keule's table: the animal with what it needs and yields, each seat's hand
// (face up only for its owner, or for everyone in a finished game's replay), the cards
// played after the reveal, prey chips and skulls, and the piles.
import type { View } from '../../../src/domain/fackel-und-keule/view.ts';
import type { Edition } from '../../../src/domain/fackel-und-keule/edition.ts';
import type { Command } from '../../../src/domain/fackel-und-keule/commands.ts';
import type { Event } from '../../../src/domain/fackel-und-keule/events.ts';
import { list, plural, seatPanel, tableWidth, type GameUi, type TableProps } from './game.ts';
import { rowsOf, SeatPanel } from './seat-panel.tsx';

const kindName = { torch: 'Torch', stoneAxe: 'Axe', spear: 'Spear', club: 'Club' } as const;
const chipNames = { teeth: 'teeth', fur: 'fur', meat: 'meat', skull: 'skull' } as const;
type Kind = keyof typeof kindName;
const kindOf = (edition: unknown, id: number): Kind => (edition as Edition).cards.find((c) => c.id === id)?.kind ?? 'club';

function Card({ x, y, id, edition, where }: { x: number; y: number; id: number | null; edition: unknown; where: string }) {
  if (id === null) {
    return (
      <g data-piece="card" data-face="down" data-where={where} transform={`translate(${x} ${y})`}>
        <rect width={40} height={50} rx={4} class="card back" />
      </g>
    );
  }
  const kind = kindOf(edition, id);
  return (
    <g data-piece="card" data-face={kind} data-card={id} data-where={where} transform={`translate(${x} ${y})`}>
      <rect width={40} height={50} rx={4} class={`card ${kind}`} />
      <text x={20} y={20} text-anchor="middle" class="card-text">{kindName[kind]}</text>
      <text x={20} y={40} text-anchor="middle" class="card-num">{id}</text>
    </g>
  );
}

function Chips({ x, y, counts, where, perRow = 18 }: { x: number; y: number; counts: Record<string, number>; where: string; perRow?: number }) {
  let i = 0;
  return (
    <g transform={`translate(${x} ${y})`}>
      {(['teeth', 'fur', 'meat', 'skull'] as const).flatMap((kind) =>
        Array.from({ length: counts[kind] ?? 0 }, () => {
          const at = i++;
          return (
            <circle data-piece="chip" data-kind={kind} data-where={where} cx={8 + (at % perRow) * 14} cy={8 + Math.floor(at / perRow) * 14} r={6} class={`chip ${kind}`}>
              <title>{chipNames[kind]}</title>
            </circle>
          );
        }),
      )}
    </g>
  );
}

// The kinds' names as the rulebook labels the chips, each with its count ("teeth 1",
// not "1 teeth": the names are labels, not nouns to count).
const countsText = (c: Record<string, number>) => (['teeth', 'fur', 'meat', 'skull'] as const).map((k) => `${k} ${c[k] ?? 0}`).join(', ');

function Table({ view, names, you, edition, narrow }: TableProps<View>) {
  const width = tableWidth(narrow);
  const handOf = (seat: number): readonly (number | null)[] =>
    view.all?.hands[seat] ?? (view.you !== null && view.you.seat === seat ? view.you.hand : Array<null>(view.seats[seat]?.handSize ?? 0).fill(null));
  // A round's end clears its animal and played cards, but the players still look at
  // them while they discard: the view keeps them as lastRound until the next reveal.
  const last = view.lastRound;
  const animal = view.animal ?? last?.animal ?? null;
  const animalOver = view.animal === null && last !== null && last.animal !== null;
  const playedOf = (seat: number): { cards: readonly number[]; over: boolean } =>
    view.seats[seat]?.played != null ? { cards: view.seats[seat]!.played!, over: false } : { cards: last?.played[seat] ?? [], over: last !== null };
  // Wide: the piles beside the animal, each seat's chips beside its cards. Narrow: the
  // piles under the animal, the hand from the left edge and the chips under the cards.
  const piles = narrow ? { x: 10, y: 130 } : { x: 330, y: 10 };
  const top = narrow ? 262 : 130;
  const cardsX = narrow ? 12 : 150;
  const cardsY = narrow ? 50 : 8;
  const chipsX = narrow ? 12 : 470;
  const perRow = narrow ? 8 : 7;
  const chipsPerRow = narrow ? 26 : 18;
  const seatLayout = view.seats.map((s) => {
    const cardRows = rowsOf(Math.max(handOf(s.seat).length, playedOf(s.seat).cards.length), perRow);
    const chips = s.chips.teeth + s.chips.fur + s.chips.meat + s.chips.skull;
    const chipsY = narrow ? cardsY + 2 * cardRows * 54 + 12 : 22;
    const height = narrow ? chipsY + 12 + rowsOf(chips, chipsPerRow) * 14 + 6 : Math.max(140, 8 + 2 * cardRows * 54 + 4);
    return { chipsY, height };
  });
  const seatY = seatLayout.reduce<number[]>((ys, l, i) => [...ys, ys[i]! + l.height + 10], [top]);
  const height = seatY[view.seats.length]! + 2;
  const summary = [
    `Round ${view.round} of ${view.rounds}, ${view.phase}.`,
    animal
      ? `${animalOver ? `Round ${last!.round}'s animal, the round is over` : 'Animal'}: ${animal.name}, needs ${animal.needs.torch} torches, ${animal.needs.stoneAxe} stone axes, ${animal.needs.spear} spears; yields ${animal.prey.teeth} teeth, ${animal.prey.fur} fur, ${animal.prey.meat} meat.`
      : 'No animal yet.',
    `Draw pile ${view.drawPileSize}, discard pile ${view.discardPileSize}.`,
    ...view.seats.map((s) => {
      const hand = handOf(s.seat);
      const shown = hand.every((c) => c !== null) && hand.length > 0 ? `: ${hand.map((c) => `${kindName[kindOf(edition, c as number)]} ${c}`).join(', ')}` : '';
      const played = playedOf(s.seat);
      const playedText = played.cards.length ? `${played.over ? `played in round ${last!.round}` : 'played'} ${played.cards.map((c) => kindName[kindOf(edition, c)]).join(', ')}; ` : s.commitment ? 'has chosen; ' : '';
      return `${names[s.seat]}: ${plural(s.handSize, 'card')} in hand${shown}; ${playedText}chips: ${countsText(s.chips)}.`;
    }),
  ].join(' ');
  const cardAt = (i: number, row: number) => ({ x: cardsX + (i % perRow) * 44, y: cardsY + (2 * Math.floor(i / perRow) + row) * 54 });
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="table-title table-desc" class="table fk" data-game="fackel-und-keule">
      <title id="table-title">Fackel+Keule table</title>
      <desc id="table-desc">{summary}</desc>
      <rect width={width} height={height} class="felt" rx={12} />
      <g data-area="animal" data-over={animalOver ? 'true' : undefined}>
        <rect x={10} y={10} width={narrow ? width - 20 : 300} height={110} rx={10} class={animalOver ? 'animal over' : 'animal'} />
        <text x={22} y={36} class="name" data-animal={animal?.id ?? ''}>{animal ? animal.name : view.phase === 'ended' ? 'The hunts are over' : 'No animal yet'}</text>
        <text x={22} y={58} class="label">{animalOver ? `Round ${last!.round} is over · ${view.phase}` : `Round ${view.round}/${view.rounds} · ${view.phase}`}</text>
        {animal ? (
          <>
            <text x={22} y={82} class="label">Needs: {animal.needs.torch} torch · {animal.needs.stoneAxe} axe · {animal.needs.spear} spear</text>
            <text x={22} y={104} class="label">Yields: {animal.prey.teeth} teeth · {animal.prey.fur} fur · {animal.prey.meat} meat</text>
          </>
        ) : null}
      </g>
      <g data-area="piles" transform={`translate(${piles.x} ${piles.y})`}>
        <rect width={40} height={50} rx={4} class="card back" />
        <text x={42} y={28} class="label" data-pile="draw">Draw pile {view.drawPileSize}</text>
        <text x={42} y={50} class="label" data-pile="discard">Discard pile {view.discardPileSize}</text>
        {view.sharing ? (
          <g data-area="pool">
            <text y={78} class="label">On the animal ({view.sharing.next !== null ? `${names[view.sharing.next]} takes ${view.sharing.takeSize}` : ''})</text>
            <Chips x={0} y={86} counts={{ ...view.sharing.pool, skull: 0 }} where="pool" />
          </g>
        ) : view.robbing ? (
          <text y={84} class="label warn">{names[view.robbing.winner]} won the fight and robs {list(view.robbing.losers.map((s) => names[s] ?? ''))}</text>
        ) : null}
      </g>
      {view.seats.map((seat) => {
        const hand = handOf(seat.seat);
        const played = playedOf(seat.seat);
        const pending = view.pending.includes(seat.seat);
        const note = seat.played ? 'Played' : seat.commitment ? 'Chosen ✓' : pending ? 'Thinking…' : played.over && played.cards.length ? `Played in round ${last!.round}` : '';
        return (
          <SeatPanel seat={seat.seat} y={seatY[seat.seat]!} width={width - 20} height={seatLayout[seat.seat]!.height} name={names[seat.seat]} nameWidth={narrow ? width - 44 : cardsX - 20} you={you === seat.seat} active={pending} note={note}>
            <g data-area="hand" data-seat={seat.seat}>
              {hand.map((id, i) => {
                const at = cardAt(i, 0);
                return <Card x={at.x} y={at.y} id={id} edition={edition} where={`hand-${seat.seat}`} />;
              })}
            </g>
            <g data-area="played" data-seat={seat.seat} data-round={played.over ? last!.round : view.round} class={played.over ? 'last-round' : undefined}>
              {played.cards.map((id, i) => {
                const at = cardAt(i, 1);
                return <Card x={at.x} y={at.y} id={id} edition={edition} where={`played-${seat.seat}`} />;
              })}
            </g>
            <text x={chipsX} y={seatLayout[seat.seat]!.chipsY} class="label" data-chips={seat.seat}>{countsText(seat.chips)}</text>
            <Chips x={chipsX - 4} y={seatLayout[seat.seat]!.chipsY + 8} counts={seat.chips} where={`seat-${seat.seat}`} perRow={chipsPerRow} />
          </SeatPanel>
        );
      })}
    </svg>
  );
}

const describe = (e: Event, name: (seat: number) => string): string => {
  switch (e.type) {
    case 'CardsDrawn':
      return `${name(e.seat)} draws ${plural(e.count, 'card')}${e.cards ? ` (${e.cards.join(', ')})` : ''}`;
    case 'DiscardPileReshuffled':
      return `The discard pile (${e.count}) becomes the draw pile`;
    case 'AnimalRevealed':
      return `Round ${e.round}: the hunt is for the ${e.animal.replaceAll('-', ' ')}`;
    case 'CardsChosen':
      return `${name(e.seat)} chooses${e.cards ? ` ${e.cards.join(', ')}` : ' in secret'}`;
    case 'CardsRevealed':
      return `Reveal: ${e.choices.map((c) => `${name(c.seat)} ${c.cards.join(', ')}`).join('; ')}`;
    case 'HuntSucceeded':
      return `The hunt succeeds: ${e.prey.teeth} teeth, ${e.prey.fur} fur, ${e.prey.meat} meat for ${list(e.takers.map(name))}`;
    case 'PreyTaken':
      return `${name(e.seat)} takes ${list(e.chips)}`;
    case 'HuntFailed':
      return `The animal escapes (${e.reason === 'missing-tools' ? 'tools missing' : 'too many clubs'})${e.fight ? '; a fight breaks out' : ''}`;
    case 'FightWon':
      return `${name(e.winner)} wins the fight${e.skull ? ' and a skull' : ''}`;
    case 'ChipRobbed':
      return `${name(e.winner)} robs ${e.chip} from ${name(e.from)}`;
    case 'RoundEnded':
      return `Round ${e.round} ends`;
    case 'SurplusDiscarded':
      return `${name(e.seat)} discards ${plural(e.count, 'card')}${e.cards ? ` (${e.cards.join(', ')})` : ''}`;
    case 'DeadlineSet':
      return `Time runs until ${new Date(e.deadline).toLocaleTimeString()}`;
    case 'TimedOut':
      return `Time is up for ${list(e.seats.map(name))}`;
    case 'GameEnded':
      return `Game over: ${e.scores.map((s, seat) => `${name(seat)} ${s}`).join(', ')}`;
  }
};

const label = (c: Command, _view: View, name: (seat: number) => string, edition: unknown): string => {
  switch (c.type) {
    case 'choose':
      return `Play ${c.cards.map((id) => `${kindName[kindOf(edition, id)]} ${id}`).join(', ')}`;
    case 'takePrey':
      return `Take ${list(c.chips)}`;
    case 'rob':
      return `Rob ${c.chip} from ${name(c.from)}`;
    case 'discard':
      return `Discard ${c.cards.map((id) => `${kindName[kindOf(edition, id)]} ${id}`).join(', ')}`;
  }
};

export const fackelUndKeule: GameUi<View> = {
  Table,
  describe: (e, name) => describe(e as Event, name),
  label: (c, view, name, edition) => label(c as Command, view, name, edition),
  // The hunted animal, the cards laid open, a fight's winner; else the seat's own.
  newest: (e) => (e.type === 'AnimalRevealed' || e.type === 'HuntSucceeded' || e.type === 'HuntFailed' ? '[data-area=animal]' : e.type === 'CardsRevealed' ? '[data-area=played]' : e.type === 'FightWon' || e.type === 'ChipRobbed' ? seatPanel(e['winner'] as number) : undefined),
};
