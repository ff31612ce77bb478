// Pieces every page shares: the page frame, the table of a game drawn by its module,
// the move list, and loading the catalog once.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, seatName, serverNow, type AnyEvent, type CatalogEntry, type GameSummary } from '../api.ts';
import { seatPanel, type TableActions } from '../games/game.ts';
import { uiFor } from '../games/index.ts';
import { refereeOf } from './mine.ts';

let catalogOnce: Promise<CatalogEntry[]> | null = null;
const catalog = () => (catalogOnce ??= api.catalog());

export function useCatalog(): CatalogEntry[] | null {
  const [entries, setEntries] = useState<CatalogEntry[] | null>(null);
  useEffect(() => void catalog().then(setEntries), []);
  return entries;
}

/** Reads again every `ms` while `active`. For what changes beside the game's log, which
 * the live socket carries and these do not: a person arriving at a waiting table, a
 * rematch made at a finished one. */
export function usePoll(active: boolean, ms: number, read: () => void): void {
  const latest = useRef(read);
  latest.current = read;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}

/** How often a waiting table and a finished one are read again (usePoll). */
export const WAITING_POLL_MS = 2000;
export const REMATCH_POLL_MS = 4000;

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

export function TableView({ game, view, you, edition, act, events = [] }: { game: GameSummary; view: unknown; you: number | null; edition: unknown; act?: TableActions | undefined; events?: readonly { seq: number; event: AnyEvent }[] }) {
  const ui = uiFor(game.type);
  const narrow = useNarrow();
  const wrap = useRef<HTMLDivElement>(null);
  // The newest move is marked where it changed the table (issue 26, item 5): the piece
  // or area of the newest event the table shows gets the class `newest` and a title
  // saying the move. Marked after each drawing, as the drawing is the games' own.
  useLayoutEffect(() => {
    const root = wrap.current;
    if (!root || !ui) return;
    for (const old of root.querySelectorAll('.newest')) old.classList.remove('newest');
    for (const old of root.querySelectorAll('title.newest-hint')) old.remove();
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i]!.event;
      const chosen = ui.newest?.(event);
      const selector = chosen === undefined ? (typeof event['seat'] === 'number' ? seatPanel(event['seat']) : null) : chosen;
      const target = selector === null ? null : root.querySelector(`svg ${selector}`);
      if (!target) continue;
      target.classList.add('newest');
      const hint = document.createElementNS('http://www.w3.org/2000/svg', 'title');
      hint.classList.add('newest-hint');
      hint.textContent = `Newest move: ${describeEvent(game, event, edition)}`;
      target.prepend(hint);
      return;
    }
  });
  if (ui === undefined) return <p role="alert">This page cannot draw {game.type} yet.</p>;
  return (
    <div class="table-wrap" data-testid="table" data-layout={narrow ? 'narrow' : 'wide'} ref={wrap}>
      <ui.Table view={view} names={names(game)} you={you} edition={edition} narrow={narrow} act={act} />
    </div>
  );
}

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

/** The move list. Live (no `onPick`) it follows the newest move, which is marked,
 * unless the person scrolled back; it is one tab stop either way, so a keyboard can
 * scroll it. In a replay (`onPick`) each move jumps to its version: the list is still
 * one tab stop, the arrow keys move inside it. */
export function MoveList({ game, events, current, edition, onPick }: { game: GameSummary; events: readonly { seq: number; event: AnyEvent }[]; current?: number; edition: unknown; onPick?: (version: number) => void }) {
  const list = useRef<HTMLOListElement>(null);
  // Whether the list was scrolled to its end before this update: then it follows.
  const following = useRef(true);
  // Where the list last scrolled itself: its own scroll event arrives a frame later,
  // maybe after more moves came in, and must not read as the person scrolling back.
  const scrolledTo = useRef<number | null>(null);
  // Said once per event, not at every step: a long game's list has thousands.
  const words = useMemo(() => events.map(({ event }) => describeEvent(game, event, edition)), [events, game, edition]);
  const newest = events[events.length - 1]?.seq;
  const marked = current ?? newest;
  // The marked move is scrolled into the list's view, without scrolling the page (on
  // a phone the list is under the table).
  useEffect(() => {
    const ol = list.current;
    if (!ol) return;
    if (current === undefined) {
      if (following.current) {
        ol.scrollTop = ol.scrollHeight;
        scrolledTo.current = ol.scrollTop;
      }
      return;
    }
    const item = ol.querySelector<HTMLElement>('[aria-current="step"]');
    if (!item) return;
    if (item.offsetTop < ol.scrollTop) ol.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = item.offsetTop + item.offsetHeight - ol.clientHeight;
  }, [current, events.length]);
  const onScroll = () => {
    const ol = list.current;
    if (!ol || (scrolledTo.current !== null && Math.abs(ol.scrollTop - scrolledTo.current) < 2)) return;
    scrolledTo.current = null;
    following.current = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 8;
  };
  const onKey = (e: KeyboardEvent) => {
    if (!onPick || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    e.stopPropagation();
    const at = events.findIndex((x) => x.seq === current);
    const next = events[Math.max(0, Math.min(events.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next === undefined) return;
    onPick(next.seq);
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-seq="${next.seq}"] button`)?.focus());
  };
  // One tab stop: the list itself live, the marked move's button in a replay.
  const stop = onPick ? (events.some((x) => x.seq === current) ? current : events[0]?.seq) : undefined;
  return (
    <ol class="moves" data-testid="moves" aria-label="Moves" ref={list} tabIndex={onPick ? undefined : 0} onScroll={onScroll} onKeyDown={onKey}>
      {events.map(({ seq }, i) => (
        <li key={seq} value={seq} aria-current={marked === seq ? 'step' : undefined} data-seq={seq}>
          {onPick ? <button type="button" class="link" tabIndex={seq === stop ? 0 : -1} onClick={() => onPick(seq)}>{words[i]}</button> : words[i]}
        </li>
      ))}
    </ol>
  );
}

/** One event in words, for any game. */
export function describeEvent(game: GameSummary, event: AnyEvent, edition: unknown): string {
  const name = (seat: number) => seatName(game, seat);
  return lifecycleWords(event, name) ?? uiFor(game.type)?.describe(event, name, edition) ?? event.type;
}

/** The newest move in words, over the table (on a phone the move list is below it). */
export function LastMove({ game, events, edition }: { game: GameSummary; events: readonly { seq: number; event: AnyEvent }[]; edition: unknown }) {
  const last = events[events.length - 1];
  return <p class="last-move" data-testid="last-move" aria-live="polite">{last ? <>Last move: <strong>{describeEvent(game, last.event, edition)}</strong></> : ' '}</p>;
}

export function Seats({ game }: { game: GameSummary }) {
  return (
    <ul class="seats" aria-label="Seats">
      {game.seats.map((s) => (
        <li>
          {seatName(game, s.seat)}
          {s.bot ? ` (bot: ${s.bot})` : s.open ? ' (open)' : ''}
        </li>
      ))}
    </ul>
  );
}

/** Seconds left until `deadline` (epoch ms on the server's clock), ticking. */
function useSecondsLeft(deadline: number | undefined): number | null {
  const left = () => (deadline === undefined ? null : Math.max(0, Math.ceil((deadline - serverNow()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (deadline === undefined) return;
    const timer = setInterval(() => setSeconds(left()), 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return seconds;
}

/** The one place that says whose turn it is, with the deadline as a countdown. A table
 * waiting for its people says so in Waiting instead: its seats are all taken. */
export function Turn({ game, pending, you, status }: { game: GameSummary; pending: { readonly seats: readonly number[]; readonly deadline?: number } | undefined; you: number | null; status: string | undefined }) {
  const seconds = useSecondsLeft(status === 'finished' ? undefined : pending?.deadline);
  if (status === 'finished' || pending === undefined) return null;
  const yours = you !== null && pending.seats.includes(you);
  const others = pending.seats.filter((s) => s !== you).map((s) => seatName(game, s));
  const who = yours ? (others.length ? `Your turn (with ${listWords(others)})` : 'Your turn') : others.length ? `Waiting for ${listWords(others)}` : status === 'open' && game.waitingFor.length === 0 ? 'Waiting for every seat to be taken' : '';
  return (
    // Kept on the page while it has nothing to say, so the live region is in place when it does.
    <p class={yours ? 'turn yours' : who === '' && seconds === null ? 'turn idle' : 'turn'} data-testid="turn" role="status">
      {who}
      {seconds !== null ? <span class="countdown" data-testid="countdown"> · {seconds} s left</span> : null}
    </p>
  );
}

const listWords = (items: readonly string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
const ordinal = (n: number): string => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

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

type ScorePart = { label: string; count?: number; points: number };
type Outcome = { scores: number[]; ranks: number[]; winners: number[]; breakdown?: ScorePart[][] };

const signed = (points: number): string => (points > 0 ? `+${points}` : points < 0 ? `−${-points}` : '0');

/** How a seat's score came about, in one line: "3 × score marker +20 · 3 × frustration
 * with Murphy −21". Parts of nothing (no pieces, no points) are left out. */
function Breakdown({ parts }: { parts: readonly ScorePart[] }) {
  const shown = parts.filter((p) => p.points !== 0 || (p.count ?? 0) > 0);
  if (shown.length === 0) return null;
  return (
    <ul class="breakdown" data-testid="breakdown">
      {shown.map((p) => (
        <li data-points={p.points}>
          {p.count !== undefined ? `${p.count} × ` : ''}{p.label}{p.points !== 0 || p.count === undefined ? ` ${signed(p.points)}` : ''}
        </li>
      ))}
    </ul>
  );
}

/** The result for a person: the headline ("You won", "2nd of 3", "Ana won", or why
 * it ended), each seat's place and score, then what to do next (`children`). */
export function Result({ game, result, ending = null, you = null, children }: { game: GameSummary; result: unknown; ending?: Ending; you?: number | null; children?: ComponentChildren }) {
  const r = result as Outcome | null | undefined;
  if ((r === null || r === undefined) && ending === null) return null;
  const headline = r
    ? you !== null && r.ranks[you] !== undefined
      ? r.winners.includes(you)
        ? r.winners.length > 1 ? `You won, tied with ${listWords(r.winners.filter((s) => s !== you).map((s) => seatName(game, s)))}` : 'You won'
        : `You came ${ordinal(r.ranks[you]!)} of ${r.ranks.length}`
      : `${listWords(r.winners.map((s) => seatName(game, s)))} won`
    : 'No result';
  return (
    <section class="result" data-testid="result" aria-label="Result">
      <h2 data-testid="headline">{headline}</h2>
      {ending !== null ? <p data-testid="ending">{endingWords(game, ending)}</p> : null}
      {r ? (
        <ol class="scores" data-testid="scores">
          {r.ranks.map((rank, seat) => ({ rank, seat })).sort((x, y) => x.rank - y.rank).map(({ rank, seat }) => (
            <li data-seat={seat} value={rank}>
              {seatName(game, seat)}{seat === you ? ' (you)' : ''}: <strong>{r.scores[seat]}</strong>
              {r.breakdown?.[seat] ? <Breakdown parts={r.breakdown[seat]!} /> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {children ? <p class="next">{children}</p> : null}
    </section>
  );
}

/** A table with a server bot that waits for its people to arrive: whom it awaits,
 * and for its creator (this browser kept the referee token) a way to start it now. */
export function Waiting({ game, started }: { game: GameSummary; started: () => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  if (game.status !== 'open' || game.waitingFor.length === 0) return null;
  const referee = refereeOf(game.id);
  const start = () => {
    setProblem(null);
    api.start(game.id, referee!).then(started, (e: unknown) => setProblem(e instanceof Error ? e.message : String(e)));
  };
  return (
    <section class="waiting" data-testid="waiting" aria-label="Waiting table">
      <p data-testid="waiting-for">Waiting for {listWords(game.waitingFor.map((s) => seatName(game, s)))}</p>
      {referee !== undefined ? <button type="button" onClick={start} data-testid="start">Start anyway</button> : null}
      {problem !== null ? <p role="alert">{problem}</p> : null}
    </section>
  );
}
