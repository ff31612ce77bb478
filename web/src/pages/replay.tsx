// Replay of a finished game: step, jump, play at a speed, keys, a move list, and ?v=N
// links. The version asked for is drawn first, from its own view (GET
// /games/{id}/view?version=N&viewer=all); the move list then comes in pages of the
// event log, and the views of the versions around the one shown are read ahead, so a
// long game's replay starts as fast as a short one's.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Game, type Logged } from '../api.ts';
import { editionOf, endingOf, MoveList, Page, Result, TableView, useCatalog } from './common.tsx';

const speeds = [0.5, 1, 2, 4, 8] as const;
/** Views read ahead of the version shown (and behind it, for stepping back). */
const ahead = 8;
const behind = 2;
const eventPage = 500;

/** Where ?v= opens a game whose last version is `last`: its end when absent or not a
 * number, else the nearest version there is. */
const startAt = (asked: string | null, last: number): number => {
  const v = asked === null || asked.trim() === '' ? NaN : Number(asked);
  return Number.isNaN(v) ? last : Math.max(0, Math.min(last, Math.round(v)));
};

export function ReplayPage({ id }: { id: string }) {
  const entries = useCatalog();
  const [game, setGame] = useState<Game | null>(null);
  const [events, setEvents] = useState<Logged[]>([]);
  const [gameError, setGameError] = useState<ApiError | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  // The version to show; null until the game's last version is known: a finished
  // game opens at its end, and ?v= is clamped to the nearest version there is.
  const [version, setVersion] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  // Views by version, filled as they arrive; `loaded` makes a new one redraw.
  const views = useRef(new Map<number, unknown>());
  const asked = useRef(new Set<number>());
  const [, setLoaded] = useState(0);
  const shown = useRef<number | null>(null);

  const load = useCallback((v: number) => {
    if (asked.current.has(v)) return;
    asked.current.add(v);
    api.viewAt(id, v).then(
      (snapshot) => {
        views.current.set(v, snapshot.view);
        setLoaded((n) => n + 1);
      },
      (e: unknown) => {
        asked.current.delete(v);
        setError(e instanceof ApiError ? e : null);
      },
    );
  }, [id]);

  // First the game (its last version and result), then the version asked for.
  useEffect(() => {
    api.game(id).then((g) => {
      setGame(g);
      if (g.status !== 'finished') return;
      const v = startAt(new URLSearchParams(location.search).get('v'), g.version);
      setVersion(v);
      load(v);
    }, (e: unknown) => setGameError(e instanceof ApiError ? e : null));
  }, [id]);

  const finished = game?.status === 'finished';
  const last = game?.version ?? 0;

  // Then the move list, a page of the log at a time.
  useEffect(() => {
    if (!finished) return;
    let stopped = false;
    const page = (after: number): void =>
      void api.events(id, after, eventPage).then((p) => {
        if (stopped) return;
        setEvents((old) => [...old, ...p.events]);
        if (p.next !== null) page(p.next);
      }, () => {});
    page(0);
    return () => {
      stopped = true;
    };
  }, [id, finished]);

  // And the views around the version shown, before they are stepped to.
  useEffect(() => {
    if (!finished) return;
    if (version === null) return;
    for (let v = Math.max(0, version - behind); v <= Math.min(last, version + ahead * (playing ? Math.max(1, speed) : 1)); v++) load(v);
  }, [version, finished, last, playing, speed, load]);

  // The version drawn: the one asked for once its view is here, the previous one until then.
  if (version !== null && views.current.has(version)) shown.current = version;
  const drawn = shown.current;

  const clamp = useCallback((v: number) => Math.max(0, Math.min(last, v)), [last]);
  const go = useCallback((v: number) => setVersion(clamp(v)), [clamp]);
  // Steps count from the version shown when they happen, not when a handler was made:
  // a key pressed right after a render must not step from the version before it.
  const step = useCallback((delta: number) => setVersion((v) => clamp((v ?? last) + delta)), [clamp, last]);

  // Before the paint, so the address never lags behind the version on the screen.
  useLayoutEffect(() => {
    if (drawn === null) return;
    const url = new URL(location.href);
    url.searchParams.set('v', String(drawn));
    history.replaceState(null, '', url);
  }, [drawn]);

  useEffect(() => {
    if (!playing || drawn !== version) return;
    if (version === null || version >= last) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => step(1), 1000 / speed);
    return () => clearTimeout(timer);
  }, [playing, version, drawn, speed, last, step]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
      const actions: Record<string, () => void> = {
        ArrowRight: () => step(1),
        ArrowLeft: () => step(-1),
        Home: () => go(0),
        End: () => go(last),
        ' ': () => setPlaying((p) => !p),
        '+': () => setSpeed((s) => speeds[Math.min(speeds.length - 1, speeds.indexOf(s as never) + 1)]!),
        '-': () => setSpeed((s) => speeds[Math.max(0, speeds.indexOf(s as never) - 1)]!),
      };
      const action = actions[event.key];
      if (action === undefined) return;
      event.preventDefault();
      action();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [go, step, last]);

  if (game !== null && !finished) {
    return (
      <Page title="Replay">
        <p role="alert" data-testid="problem">This game is still being played: its replay opens once it is over.</p>
        <p><a href={`/watch/${id}`}>Watch it live instead</a></p>
      </Page>
    );
  }
  if (gameError !== null) return <Page title="Replay"><p role="alert" data-testid="problem">{gameError.problem.detail}</p></Page>;
  if (game !== null && error !== null && drawn === null) return <Page title="Replay"><p role="alert" data-testid="problem">{error.problem.detail}</p></Page>;
  if (game === null || entries === null || drawn === null) return <Page title="Replay"><p>Loading…</p></Page>;
  const view = views.current.get(drawn);
  const title = entries.find((e) => e.type === game.game.type)?.title ?? game.game.type;
  const edition = editionOf(entries, game.game.type);
  return (
    <Page title={`Replay: ${title}`}>
      <div class="controls" role="toolbar" aria-label="Replay controls">
        <button type="button" onClick={() => go(0)} aria-label="First version" aria-keyshortcuts="Home">First</button>
        <button type="button" onClick={() => step(-1)} aria-label="Step back" aria-keyshortcuts="ArrowLeft" data-testid="back">◀</button>
        <button type="button" onClick={() => setPlaying(!playing)} aria-keyshortcuts="Space" data-testid="play">{playing ? 'Pause' : 'Play'}</button>
        <button type="button" onClick={() => step(1)} aria-label="Step forward" aria-keyshortcuts="ArrowRight" data-testid="forward">▶</button>
        <button type="button" onClick={() => go(last)} aria-label="Last version" aria-keyshortcuts="End">Last</button>
        <label>Speed <select value={String(speed)} onChange={(e) => setSpeed(Number(e.currentTarget.value))} data-testid="speed">
          {speeds.map((s) => <option value={String(s)}>{s}×</option>)}
        </select></label>
        <label class="grow">Version <input type="range" min={0} max={last} value={drawn} onInput={(e) => go(Number(e.currentTarget.value))} data-testid="slider" /></label>
        <output data-testid="version" aria-busy={drawn !== version}>{drawn} / {last}</output>
        <a href={`?v=${drawn}`} data-testid="link">Link to this version</a>
      </div>
      <p class="hint">Keys: ← → step, Home/End, Space play/pause, + − speed.</p>
      {error !== null ? <p role="alert" class="refusal">{error.problem.detail}</p> : null}
      <div class="layout">
        <TableView game={game.game} view={view} you={null} edition={edition} events={events.filter((e) => e.seq <= drawn)} />
        <aside>
          {drawn === last ? <Result game={game.game} result={game.result} ending={endingOf(view)} /> : null}
          <MoveList game={game.game} events={events} current={drawn} edition={edition} onPick={go} />
        </aside>
      </div>
    </Page>
  );
}
