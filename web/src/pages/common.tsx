// Pieces every page shares: the page frame, the table of a game drawn by its module,
// the move list, and loading the catalog once.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, seatName, type AnyEvent, type CatalogEntry, type GameSummary } from '../api.ts';
import { uiFor } from '../games/index.ts';

let catalogOnce: Promise<CatalogEntry[]> | null = null;
const catalog = () => (catalogOnce ??= api.catalog());

export function useCatalog(): CatalogEntry[] | null {
  const [entries, setEntries] = useState<CatalogEntry[] | null>(null);
  useEffect(() => void catalog().then(setEntries), []);
  return entries;
}

export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Spielwerk`;
  }, [title]);
  return (
    <>
      <header class="top">
        <a href="/" class="brand">Spielwerk</a>
        <h1>{title}</h1>
      </header>
      <main>{children}</main>
    </>
  );
}

export const names = (game: GameSummary): string[] => game.seats.map((s) => seatName(game, s.seat));

/** A phone-sized screen (the same width as the stylesheet's): tables take their narrow layout. */
const phone = '(max-width: 600px)';

export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(phone).matches);
  useEffect(() => {
    const query = matchMedia(phone);
    const changed = () => setNarrow(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  return narrow;
}

export function TableView({ game, view, you, edition }: { game: GameSummary; view: unknown; you: number | null; edition: unknown }) {
  const ui = uiFor(game.type);
  const narrow = useNarrow();
  if (ui === undefined) return <p role="alert">This page cannot draw {game.type} yet.</p>;
  return (
    <div class="table-wrap" data-testid="table" data-layout={narrow ? 'narrow' : 'wide'}>
      <ui.Table view={view} names={names(game)} you={you} edition={edition} narrow={narrow} />
    </div>
  );
}

/** Every event in words, newest last; `current` (a version) is marked, and with
 * `onPick` each entry jumps to its version. */
/** The events every game shares (src/domain/lifecycle.ts), in words. */
function lifecycleWords(event: AnyEvent, name: (seat: number) => string): string | undefined {
  switch (event.type) {
    case 'SeatResigned':
      return `${name(event['seat'] as number)} ${event['timedOut'] ? 'runs out of time' : 'resigns'}`;
    case 'GameAborted':
      return `The game is aborted by ${event['by'] === 'referee' ? 'its creator' : 'the organizer'}`;
    case 'GameExpired':
      return 'The game expires: its seats were never all taken';
    case 'TurnClockSet':
      return event['deadline'] === null ? 'The turn clock stops' : `The turn clock runs until ${new Date(event['deadline'] as number).toLocaleTimeString()}`;
  }
  return undefined;
}

export function MoveList({ game, events, current, edition, onPick }: { game: GameSummary; events: readonly { seq: number; event: AnyEvent }[]; current?: number; edition: unknown; onPick?: (version: number) => void }) {
  const list = useRef<HTMLOListElement>(null);
  // Said once per event, not at every step: a long game's list has thousands.
  const words = useMemo(() => {
    const ui = uiFor(game.type);
    const name = (seat: number) => seatName(game, seat);
    return events.map(({ event }) => lifecycleWords(event, name) ?? ui?.describe(event, name, edition) ?? event.type);
  }, [events, game, edition]);
  // The marked move is scrolled into the list's view, without scrolling the page (on
  // a phone the list is under the table).
  useEffect(() => {
    const ol = list.current;
    const item = ol?.querySelector<HTMLElement>('[aria-current="step"]');
    if (!ol || !item) return;
    if (item.offsetTop < ol.scrollTop) ol.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = item.offsetTop + item.offsetHeight - ol.clientHeight;
  }, [current, events.length]);
  return (
    <ol class="moves" data-testid="moves" aria-label="Moves" ref={list}>
      {events.map(({ seq }, i) => (
        <li key={seq} value={seq} aria-current={current === seq ? 'step' : undefined} data-seq={seq}>
          {onPick ? <button type="button" class="link" onClick={() => onPick(seq)}>{words[i]}</button> : words[i]}
        </li>
      ))}
    </ol>
  );
}

export function Seats({ game, pending }: { game: GameSummary; pending?: readonly number[] }) {
  return (
    <ul class="seats" aria-label="Seats">
      {game.seats.map((s) => (
        <li class={pending?.includes(s.seat) ? 'pending' : ''}>
          {seatName(game, s.seat)}
          {s.bot ? ` (bot: ${s.bot})` : s.open ? ' (open)' : ''}
          {pending?.includes(s.seat) ? ' — to act' : ''}
        </li>
      ))}
    </ul>
  );
}

export const editionOf = (entries: CatalogEntry[] | null, type: string): unknown => entries?.find((e) => e.type === type)?.edition;

type Ending = GameSummary['ending'];

/** Why the game shown ended outside its rules, from its view (every view carries it). */
export const endingOf = (view: unknown): Ending => (view as { lifecycle?: { ending?: Ending } } | null)?.lifecycle?.ending ?? null;

function endingWords(game: GameSummary, ending: NonNullable<Ending>): string {
  switch (ending.kind) {
    case 'resigned':
      return `${ending.seats.map((s) => seatName(game, s)).join(', ')} ${ending.timedOut ? 'ran out of time' : 'resigned'}`;
    case 'aborted':
      return `Aborted by ${ending.by === 'referee' ? 'its creator' : 'the organizer'}: no result`;
    case 'expired':
      return 'Expired: its seats were never all taken, no result';
    case 'adjudicated':
      return `${ending.correction ? 'Result corrected' : 'Adjudicated'} by the organizer: ${ending.reason}`;
  }
}

export function Result({ game, result, ending = null }: { game: GameSummary; result: unknown; ending?: Ending }) {
  const r = result as { scores: number[]; ranks: number[]; winners: number[] } | null;
  if ((r === null || r === undefined) && ending === null) return null;
  return (
    <p class="result" data-testid="result">
      {ending !== null ? <span data-testid="ending">{endingWords(game, ending)}{r ? ' · ' : ''}</span> : null}
      {r ? <>Winner{r.winners.length > 1 ? 's' : ''}: {r.winners.map((s) => seatName(game, s)).join(', ')} · scores {r.scores.map((s, seat) => `${seatName(game, seat)} ${s}`).join(', ')}</> : null}
    </p>
  );
}
