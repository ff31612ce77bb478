// Watching a game live as a spectator: the table follows the WebSocket's updates; the
// connection's state is shown, and a reconnect only catches the table up.
import type { GameType } from '@spielwerk/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type GameSummary, type Logged } from '../api.ts';
import { watchLive, type LiveState, type Update } from '../live.ts';
import { editionOf, endingOf, LastMove, MoveList, Page, Result, Seats, TableView, Turn, useCatalog, usePoll, Waiting, WAITING_POLL_MS } from './common.tsx';

export const stateWords: Record<LiveState, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  'caught-up': 'caught up',
  over: 'game over',
  refused: 'not available',
};

/** The live table of a game: the spectator's updates folded into what is drawn. The
 * socket opens once the game's type is known (it types the updates). */
export function useLive(id: string, type: string | undefined, onUpdate?: (update: Update) => void) {
  const [state, setState] = useState<LiveState>('connecting');
  const [update, setUpdate] = useState<Update | null>(null);
  const [events, setEvents] = useState<Logged[]>([]);
  useEffect(() => {
    if (type === undefined) return;
    return watchLive(id, type as GameType, {
      update: (u) => {
        setUpdate(u);
        if (u.events.length) setEvents((old) => [...old, ...u.events.filter((e) => e.seq > (old[old.length - 1]?.seq ?? 0))]);
        onUpdate?.(u);
      },
      state: setState,
    });
  }, [id, type]);
  return { state, update, events };
}

export function WatchPage({ id }: { id: string }) {
  const entries = useCatalog();
  const [game, setGame] = useState<GameSummary | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const status = useRef<string | null>(null);
  const { state, update, events } = useLive(id, game?.type, (u) => {
    // Seats fill and games finish: the summary (names, seed) is read again then.
    if (u.status === status.current) return;
    status.current = u.status;
    api.game(id).then((g) => setGame(g.game), () => {});
  });
  useEffect(() => void api.game(id).then((g) => setGame(g.game), (e: unknown) => setError(e instanceof ApiError ? e : null)), [id]);
  // "Waiting for Ana and Bo" shrinks as they arrive.
  usePoll(game !== null && game.status === 'open' && game.waitingFor.length > 0, WAITING_POLL_MS, () => void api.game(id).then((g) => setGame(g.game), () => {}));
  if (error !== null) return <Page title="Watch"><p role="alert" data-testid="problem">{error.problem.detail}</p></Page>;
  if (game === null || entries === null) return <Page title="Watch"><p>Loading…</p></Page>;
  const edition = editionOf(entries, game.type);
  const title = entries.find((e) => e.type === game.type)?.title ?? game.type;
  return (
    <Page title={`Watching ${title}`}>
      <p class="status">
        <span class={`live-state ${state}`} data-testid="live-state" role="status">{stateWords[state]}</span>
        {update ? <span data-testid="version"> · version {update.version}</span> : null}
      </p>
      <Seats game={game} />
      <Waiting game={game} started={() => void api.game(id).then((g) => setGame(g.game), () => {})} />
      {update ? (
        <>
          <Result game={game} result={update.result} ending={endingOf(update.view)}>
            <a class="button" href={`/replay/${id}`} data-testid="replay">Replay the game</a>
          </Result>
          <Turn game={game} pending={update.pending} you={null} status={update.status} />
        </>
      ) : null}
      {update ? (
        <div class="layout">
          <div>
            <LastMove game={game} events={events} edition={edition} />
            <TableView game={game} view={update.view} you={null} edition={edition} events={events} />
          </div>
          <aside>
            <MoveList game={game} events={events} edition={edition} />
          </aside>
        </div>
      ) : null}
    </Page>
  );
}
