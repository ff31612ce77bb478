// The lobby: games being played and finished (filtered by type and status), open
// seats to join, and a form that creates a game from the catalog's option schemas.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, optionProperties, seatName, type CatalogEntry, type Created, type GameSummary, type JsonSchema } from '../api.ts';
import { Page, useCatalog } from './common.tsx';

const statuses = ['running', 'open', 'finished'] as const;
type SeatChoice = 'person' | 'open' | 'bot:greedy' | 'bot:random';
const botOf = { 'bot:greedy': 'greedy', 'bot:random': 'random' } as const;

function GameRow({ game, title }: { game: GameSummary; title: string }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const join = async () => {
    try {
      const joined = await api.join(game.id, name || 'Guest');
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
      <span class="hint">v{game.version} · {new Date(game.createdAt).toLocaleString()}</span>{' '}
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

export function OptionField({ name, schema, value, set }: { name: string; schema: JsonSchema; value: unknown; set: (v: unknown) => void }) {
  const id = `option-${name}`;
  if (schema.type === 'boolean') {
    return <label for={id} title={schema.description}><input id={id} type="checkbox" checked={value === true} onChange={(e) => set(e.currentTarget.checked)} /> {name}</label>;
  }
  return (
    <label for={id} title={schema.description}>
      {name} <input id={id} type="number" min={schema.minimum} max={schema.maximum} value={String(value ?? '')} onInput={(e) => set(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))} />
    </label>
  );
}

function CreateForm({ entries, created }: { entries: CatalogEntry[]; created: (c: Created) => void }) {
  const [type, setType] = useState(entries[0]?.type ?? '');
  const entry = entries.find((e) => e.type === type);
  const [seats, setSeats] = useState<{ name: string; kind: SeatChoice }[]>([]);
  const [options, setOptions] = useState<Record<string, unknown>>({});
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!entry) return;
    setSeats(Array.from({ length: entry.players.min }, (_, i) => ({ name: i === 0 ? 'You' : `Bot ${i}`, kind: i === 0 ? 'person' : 'bot:greedy' })));
    setOptions(Object.fromEntries(Object.entries(optionProperties(entry.options)).map(([k, s]) => [k, s.default])));
  }, [type]);
  if (!entry) return null;
  const submit = async () => {
    setProblem(null);
    try {
      const result = await api.create({
        type,
        seats: seats.map((s) => (s.kind === 'open' ? { open: true } : s.kind === 'person' ? { name: s.name } : { name: s.name, bot: botOf[s.kind] })),
        options: Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
      });
      created(result);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.problem.detail : String(e));
    }
  };
  return (
    <form class="create" onSubmit={(e) => (e.preventDefault(), void submit())} aria-label="Create a game">
      <label>Game <select value={type} onChange={(e) => setType(e.currentTarget.value)} data-testid="create-type">
        {entries.map((e) => <option value={e.type}>{e.title}</option>)}
      </select></label>
      <fieldset>
        <legend>Seats ({entry.players.min}–{entry.players.max})</legend>
        {seats.map((seat, i) => (
          <div class="seat-row">
            <input aria-label={`Seat ${i + 1} name`} value={seat.name} maxLength={64} onInput={(e) => setSeats(seats.map((s, j) => (j === i ? { ...s, name: e.currentTarget.value } : s)))} disabled={seat.kind === 'open'} />
            <select aria-label={`Seat ${i + 1} player`} value={seat.kind} onChange={(e) => setSeats(seats.map((s, j) => (j === i ? { ...s, kind: e.currentTarget.value as SeatChoice } : s)))}>
              <option value="person">a person (gets a link)</option>
              <option value="open">open for anyone to join</option>
              <option value="bot:greedy">greedy bot</option>
              <option value="bot:random">random bot</option>
            </select>
          </div>
        ))}
        <button type="button" disabled={seats.length >= entry.players.max} onClick={() => setSeats([...seats, { name: `Player ${seats.length + 1}`, kind: 'bot:greedy' }])}>Add a seat</button>
        <button type="button" disabled={seats.length <= entry.players.min} onClick={() => setSeats(seats.slice(0, -1))}>Remove a seat</button>
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

function CreatedLinks({ created }: { created: Created }) {
  const base = `${location.origin}/play/${created.game.id}#token=`;
  return (
    <section class="created" data-testid="created" aria-label="Your new game">
      <h3>Game created</h3>
      <p>Share each person's link with them; it is their seat. <a href={`/watch/${created.game.id}`}>Watch it</a>.</p>
      <ul>
        {created.seats.filter((s) => s.token !== null).map((s) => (
          <li><a href={`${base}${encodeURIComponent(s.token!)}`} data-seat={s.seat}>Play as {seatName(created.game, s.seat)}</a></li>
        ))}
      </ul>
    </section>
  );
}

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
      <section aria-label="Games">
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
      <section aria-label="New game">
        <h2>New game</h2>
        {created ? <CreatedLinks created={created} /> : null}
        {entries ? <CreateForm entries={entries} created={setCreated} /> : null}
      </section>
    </Page>
  );
}
