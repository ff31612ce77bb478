// The lobby: games being played and finished (filtered by type and status), open
// seats to join, and a form that creates a game from the catalog's option schemas.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, optionProperties, seatName, type CatalogEntry, type Created, type Game, type GameSummary, type JsonSchema } from '../api.ts';
import { Page, useCatalog } from './common.tsx';
import { mySeats, remember, rememberReferee, seatLink, type MySeat } from './mine.ts';

const statuses = ['running', 'open', 'finished'] as const;
type SeatChoice = 'person' | 'open' | 'bot:greedy' | 'bot:random';
const botOf = { 'bot:greedy': 'greedy', 'bot:random': 'random' } as const;
/** A seat left unnamed is named by what plays it: "Player 1", "Greedy bot 2". */
const defaultName = (kind: SeatChoice, i: number): string => `${kind === 'bot:greedy' ? 'Greedy bot' : kind === 'bot:random' ? 'Random bot' : 'Player'} ${i + 1}`;

function GameRow({ game, title }: { game: GameSummary; title: string }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const join = async () => {
    try {
      const joined = await api.join(game.id, name || 'Guest');
      remember({ id: game.id, seat: joined.seat, token: joined.token, type: game.type, name: name || 'Guest' });
      location.assign(`/play/${game.id}#token=${encodeURIComponent(joined.token)}`);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.problem.detail : String(e));
    }
  };
  const open = game.seats.some((s) => s.open);
  return (
    <li class="game" data-game-id={game.id} data-status={game.status}>
      <strong>{title}</strong> <span class={`badge ${game.status}`}>{game.status}</span>{' '}
      <span>{game.seats.map((s) => (s.open ? 'open seat' : seatName(game, s.seat))).join(', ')}</span>{' '}
      {game.result ? <span data-testid="winners">· won by <strong>{game.result.winners.map((w) => seatName(game, w)).join(' and ')}</strong></span> : null}{' '}
      <span class="hint">{game.version} moves · {new Date(game.createdAt).toLocaleString()}</span>{' '}
      {game.status === 'finished' ? <a href={`/replay/${game.id}`}>Replay</a> : <a href={`/watch/${game.id}`}>Watch</a>}
      {game.tournament ? <> · <a href={`/t/${game.tournament.id}`} data-testid="tournament-link">Its tournament (round {game.tournament.round})</a></> : null}
      {open && game.status === 'open' ? (
        <form class="join" onSubmit={(e) => (e.preventDefault(), void join())}>
          <input aria-label="Your name" placeholder="Your name" value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={64} />
          <button type="submit">Join</button>
          {problem ? <span role="alert">{problem}</span> : null}
        </form>
      ) : null}
    </li>
  );
}

/** Each option's label in words, with its unit; an option not listed here is named
 * from its key ("maxActions" → "max actions"). */
const optionWords: Readonly<Record<string, string>> = {
  firstSeat: 'First to play (seat number)',
  reactionSeconds: 'Reaction window (seconds, 0 = no limit)',
  turnSeconds: 'Time per turn (seconds, 0 = no limit)',
  revealMs: 'Time to reveal a card (milliseconds, 0 = no limit)',
  windowMs: 'Time to grab or slap (milliseconds, 0 = no limit)',
  maxActions: 'Most cards revealed (cards)',
  expert: 'Expert variant',
};
const optionLabel = (name: string): string => optionWords[name] ?? name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

/** Options a person counts from 1 that the API counts from 0 (seat numbers): shown and
 * typed one higher than sent. */
const countedFromOne: ReadonlySet<string> = new Set(['firstSeat']);

// The help is written under each field, not in a tooltip: a touch screen has no hover.
export function OptionField({ name, schema, value, set }: { name: string; schema: JsonSchema; value: unknown; set: (v: unknown) => void }) {
  const id = `option-${name}`;
  const help = schema.description ? <small id={`${id}-help`} class="help">{schema.description}</small> : null;
  const described = schema.description ? `${id}-help` : undefined;
  if (schema.type === 'boolean') {
    return <div class="option"><label for={id}><input id={id} type="checkbox" checked={value === true} onChange={(e) => set(e.currentTarget.checked)} aria-describedby={described} /> {optionLabel(name)}</label>{help}</div>;
  }
  const shift = countedFromOne.has(name) ? 1 : 0;
  const bound = (b: number | undefined) => (b === undefined ? undefined : b + shift);
  return (
    <div class="option">
      <label for={id}>{optionLabel(name)}</label>
      <input id={id} type="number" min={bound(schema.minimum)} max={bound(schema.maximum)} value={typeof value === 'number' ? String(value + shift) : ''} onInput={(e) => set(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) - shift)} aria-describedby={described} />
      {help}
    </div>
  );
}

const freshSeats = (entry: CatalogEntry | undefined): { name: string; kind: SeatChoice }[] =>
  Array.from({ length: entry?.players.min ?? 0 }, (_, i) => ({ name: '', kind: i === 0 ? 'person' : 'bot:greedy' }));
const freshOptions = (entry: CatalogEntry | undefined): Record<string, unknown> =>
  entry ? Object.fromEntries(Object.entries(optionProperties(entry.options)).map(([k, s]) => [k, s.default])) : {};

function CreateForm({ entries, created }: { entries: CatalogEntry[]; created: (c: Created) => void }) {
  const [type, setType] = useState(entries[0]?.type ?? '');
  const entry = entries.find((e) => e.type === type);
  const [seats, setSeats] = useState(() => freshSeats(entries[0]));
  const [options, setOptions] = useState(() => freshOptions(entries[0]));
  // '' leaves the bots' pace to the server (BOT_THINK_MS), else the ms a move.
  const [botSpeed, setBotSpeed] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // The form is reset in the same update as the game's choice, not by an effect after
  // it: a name typed right after choosing was wiped by the effect's late reset.
  const choose = (next: string) => {
    const chosen = entries.find((e) => e.type === next);
    setType(next);
    setSeats(freshSeats(chosen));
    setOptions(freshOptions(chosen));
  };
  if (!entry) return null;
  const submit = async () => {
    setProblem(null);
    try {
      const result = await api.create({
        type,
        seats: seats.map((s, i) => {
          const name = s.name.trim() || defaultName(s.kind, i);
          return s.kind === 'open' ? { open: true } : s.kind === 'person' ? { name } : { name, bot: botOf[s.kind] };
        }),
        options: Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
        ...(botSpeed === '' || !seats.some((s) => s.kind.startsWith('bot:')) ? {} : { botThinkMs: Number(botSpeed) }),
      });
      rememberReferee(result.game.id, result.refereeToken);
      for (const seat of result.seats) if (seat.token !== null) remember({ id: result.game.id, seat: seat.seat, token: seat.token, type, name: seatName(result.game, seat.seat) });
      created(result);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.problem.detail : String(e));
    }
  };
  return (
    <form class="create" onSubmit={(e) => (e.preventDefault(), void submit())} aria-label="Create a game">
      <label>Game <select value={type} onChange={(e) => choose(e.currentTarget.value)} data-testid="create-type">
        {entries.map((e) => <option value={e.type}>{e.title}</option>)}
      </select></label>
      <fieldset>
        <legend>Seats ({entry.players.min}–{entry.players.max})</legend>
        {seats.map((seat, i) => (
          <div class="seat-row">
            <input aria-label={`Seat ${i + 1} name`} value={seat.name} placeholder={defaultName(seat.kind, i)} maxLength={64} onInput={(e) => setSeats(seats.map((s, j) => (j === i ? { ...s, name: e.currentTarget.value } : s)))} disabled={seat.kind === 'open'} />
            <select aria-label={`Seat ${i + 1} player`} value={seat.kind} onChange={(e) => setSeats(seats.map((s, j) => (j === i ? { ...s, kind: e.currentTarget.value as SeatChoice } : s)))}>
              <option value="person">a person (gets a link)</option>
              <option value="open">open for anyone to join</option>
              <option value="bot:greedy">greedy bot</option>
              <option value="bot:random">random bot</option>
            </select>
          </div>
        ))}
        <button type="button" disabled={seats.length >= entry.players.max} onClick={() => setSeats([...seats, { name: '', kind: 'bot:greedy' }])}>Add a seat</button>
        <button type="button" disabled={seats.length <= entry.players.min} onClick={() => setSeats(seats.slice(0, -1))}>Remove a seat</button>
        {seats.some((s) => s.kind.startsWith('bot:')) ? (
          <div class="option">
            <label for="bot-speed">Bot speed</label>
            <select id="bot-speed" value={botSpeed} onChange={(e) => setBotSpeed(e.currentTarget.value)} aria-describedby="bot-speed-help" data-testid="bot-speed">
              <option value="">watchable (the server's pace, 0.8 s a move by default)</option>
              <option value="2000">slow (2 seconds a move)</option>
              <option value="0">fast (no pause)</option>
            </select>
            <small id="bot-speed-help" class="help">How long the bots think before each move, so that you can follow what they do.</small>
          </div>
        ) : null}
      </fieldset>
      {Object.keys(optionProperties(entry.options)).length ? (
        <fieldset>
          <legend>Options</legend>
          {Object.entries(optionProperties(entry.options)).map(([name, schema]) => (
            <OptionField name={name} schema={schema} value={options[name]} set={(v) => setOptions({ ...options, [name]: v })} />
          ))}
        </fieldset>
      ) : null}
      <button type="submit" data-testid="create">Create</button>
      {problem ? <p role="alert" data-testid="problem">{problem}</p> : null}
    </form>
  );
}

/** A seat's link to share, with a button that copies it. */
function CopyLink({ seat, label }: { seat: { id: string; token: string; seat: number }; label: string }) {
  const [copied, setCopied] = useState(false);
  const link = seatLink(seat);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard (a page not served over https): select the link for the person to copy.
      const input = document.getElementById(`link-${seat.id}-${seat.seat}`) as HTMLInputElement | null;
      input?.select();
    }
  };
  return (
    <span class="copy-link">
      <a href={link} data-seat={seat.seat}>{label}</a>
      <input id={`link-${seat.id}-${seat.seat}`} readOnly value={link} aria-label={`Link: ${label}`} class="link-text" />
      <button type="button" onClick={() => void copy()} data-testid="copy">{copied ? 'Copied' : 'Copy link'}</button>
    </span>
  );
}

function CreatedLinks({ created }: { created: Created }) {
  return (
    <section class="created" data-testid="created" aria-label="Your new game">
      <h3>Game created</h3>
      <p>Share each person's link with them; it is their seat. This browser keeps them under Your games. <a href={`/watch/${created.game.id}`}>Watch it</a>.</p>
      <ul>
        {created.seats.filter((s) => s.token !== null).map((s) => (
          <li><CopyLink seat={{ id: created.game.id, token: s.token!, seat: s.seat }} label={`Play as ${seatName(created.game, s.seat)}`} /></li>
        ))}
      </ul>
    </section>
  );
}

/** The seats this browser created or joined, each with its game's state now. */
function YourGames({ titles, again }: { titles: (type: string) => string; again: unknown }) {
  const [seats, setSeats] = useState<{ mine: MySeat; game: Game | null }[]>([]);
  useEffect(() => {
    const mine = mySeats();
    setSeats(mine.map((m) => ({ mine: m, game: null })));
    // Read as a spectator: a read with a seat's token is that person's arrival, and
    // listing a table this browser created must not count its other people as arrived.
    mine.forEach((m, i) => void api.game(m.id).then((game) => setSeats((old) => old.map((x, j) => (j === i ? { ...x, game } : x))), () => {}));
  }, [again]);
  if (seats.length === 0) return null;
  return (
    <section aria-label="Your games">
      <h2>Your games</h2>
      <ul class="games" data-testid="your-games">
        {seats.map(({ mine, game }) => (
          <li class="game" data-game-id={mine.id} data-seat={mine.seat}>
            <strong>{titles(mine.type)}</strong> as {game ? seatName(game.game, mine.seat) : mine.name}{' '}
            <span class={`badge ${game?.status ?? ''}`} data-testid="state">{game ? stateOf(game, mine.seat) : '…'}</span>{' '}
            <CopyLink seat={mine} label={game?.status === 'finished' ? 'Open' : 'Play'} />
          </li>
        ))}
      </ul>
    </section>
  );
}

const stateOf = (game: Game, seat: number): string => {
  if (game.status === 'finished') {
    const result = game.result;
    return result ? (result.winners.includes(seat) ? 'you won' : `finished, you came ${result.ranks[seat]} of ${result.ranks.length}`) : 'finished, no result';
  }
  if (game.status === 'open') return 'waiting for players';
  return game.pending.seats.includes(seat) ? 'your turn' : 'running';
};

export function LobbyPage() {
  const entries = useCatalog();
  const query = new URLSearchParams(location.search);
  const [type, setType] = useState(query.get('type') ?? '');
  const [status, setStatus] = useState(query.get('status') ?? '');
  const [games, setGames] = useState<GameSummary[] | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  useEffect(() => {
    const url = new URL(location.href);
    for (const [k, v] of [['type', type], ['status', status]] as const) v ? url.searchParams.set(k, v) : url.searchParams.delete(k);
    history.replaceState(null, '', url);
    api.list({ type, status }).then((r) => setGames(r.games), () => setGames([]));
  }, [type, status, created]);
  const title = (t: string) => entries?.find((e) => e.type === t)?.title ?? t;
  return (
    <Page title="Lobby">
      <section aria-label="New game">
        <h2>New game</h2>
        {created ? <CreatedLinks created={created} /> : null}
        {entries ? <CreateForm entries={entries} created={setCreated} /> : null}
      </section>
      <YourGames titles={title} again={created} />
      <section aria-label="Games">
        <h2>Games</h2>
        <div class="filters">
          <label>Game <select value={type} onChange={(e) => setType(e.currentTarget.value)} data-testid="filter-type">
            <option value="">all</option>
            {entries?.map((e) => <option value={e.type}>{e.title}</option>)}
          </select></label>
          <label>Status <select value={status} onChange={(e) => setStatus(e.currentTarget.value)} data-testid="filter-status">
            <option value="">all</option>
            {statuses.map((s) => <option value={s}>{s}</option>)}
          </select></label>
        </div>
        {games === null ? <p>Loading…</p> : games.length === 0 ? <p data-testid="no-games">No games yet.</p> : (
          <ul class="games" data-testid="games">{games.map((g) => <GameRow game={g} title={title(g.type)} />)}</ul>
        )}
      </section>
    </Page>
  );
}
