// Replay of a finished game from GET /games/{id}/replay (every step's view, everything
// revealed): step, jump, play at a speed, keys, a move list, and ?v=N links.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Replay } from '../api.ts';
import { editionOf, MoveList, Page, Result, TableView, useCatalog } from './common.tsx';

const speeds = [0.5, 1, 2, 4, 8] as const;

export function ReplayPage({ id }: { id: string }) {
  const entries = useCatalog();
  const [replay, setReplay] = useState<Replay | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [version, setVersion] = useState(() => Number(new URLSearchParams(location.search).get('v') ?? NaN));
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);

  useEffect(() => {
    api.replay(id).then((r) => {
      setReplay(r);
      setVersion((v) => (Number.isInteger(v) && v >= 0 && v <= r.steps.length ? v : 0));
    }, (e: unknown) => setError(e instanceof ApiError ? e : null));
  }, [id]);

  const last = replay?.steps.length ?? 0;
  const clamp = useCallback((v: number) => Math.max(0, Math.min(last, v)), [last]);
  const go = useCallback((v: number) => setVersion(clamp(v)), [clamp]);
  // Steps count from the version shown when they happen, not when a handler was made:
  // a key pressed right after a render must not step from the version before it.
  const step = useCallback((delta: number) => setVersion((v) => clamp(v + delta)), [clamp]);

  useEffect(() => {
    if (replay === null) return;
    const url = new URL(location.href);
    url.searchParams.set('v', String(version));
    history.replaceState(null, '', url);
  }, [version, replay]);

  useEffect(() => {
    if (!playing) return;
    if (version >= last) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => step(1), 1000 / speed);
    return () => clearTimeout(timer);
  }, [playing, version, speed, last, step]);

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

  if (error !== null) {
    return (
      <Page title="Replay">
        <p role="alert" data-testid="problem">{error.problem.detail}</p>
        {error.problem.code === 'game/not-finished' ? <p><a href={`/watch/${id}`}>Watch it live instead</a></p> : null}
      </Page>
    );
  }
  if (replay === null || entries === null) return <Page title="Replay"><p>Loading…</p></Page>;
  const { game } = replay;
  const view = version === 0 ? replay.initialView : replay.steps[version - 1]!.view;
  const title = entries.find((e) => e.type === game.type)?.title ?? game.type;
  const events = replay.steps.map((s) => ({ seq: s.seq, event: s.event as { type: string } }));
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
        <label class="grow">Version <input type="range" min={0} max={last} value={version} onInput={(e) => go(Number(e.currentTarget.value))} data-testid="slider" /></label>
        <output data-testid="version">{version} / {last}</output>
        <a href={`?v=${version}`} data-testid="link">Link to this version</a>
      </div>
      <p class="hint">Keys: ← → step, Home/End, Space play/pause, + − speed.</p>
      <div class="layout">
        <TableView game={game} view={view} you={null} edition={editionOf(entries, game.type)} />
        <aside>
          <Result game={game} result={version === last ? replay.result : null} />
          <MoveList game={game} events={events} current={version} edition={editionOf(entries, game.type)} onPick={go} />
        </aside>
      </div>
    </Page>
  );
}
