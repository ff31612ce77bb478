// Playing as a seat. The seat token comes from the link's fragment (#token=…), which
// browsers never send to a server; requests carry it in the Authorization header.
// The spectator socket says when the game moved, then the seat's own view and legal
// commands are read over HTTP. Legal commands are the buttons (folded away for moves the
// table offers as pieces to click); commands that pick cards get a picker; racing
// commands also have keys.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Command, type Game } from '../api.ts';
import { uiFor } from '../games/index.ts';
import { editionOf, endingOf, LastMove, MoveList, names, Page, REMATCH_POLL_MS, Result, Seats, TableView, Turn, useCatalog, usePoll, Waiting, WAITING_POLL_MS } from './common.tsx';

const REMATCH_WINDOW_MS = 15 * 60_000;
import { remember, seatLink } from './mine.ts';
import { stateWords, useLive } from './watch.tsx';

const tokenFromHash = (): string | null => new URLSearchParams(location.hash.slice(1)).get('token');

const sameCards = (a: readonly number[], b: readonly number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((x, i) => x === [...b].sort((p, q) => p - q)[i]);

function Commands({ game, legal, send, edition }: { game: Game; legal: readonly Command[]; send: (c: Command) => void; edition: unknown }) {
  const ui = uiFor(game.game.type)!;
  const [picked, setPicked] = useState<number[]>([]);
  useEffect(() => setPicked([]), [game.version]);
  const name = (seat: number) => names(game.game)[seat] ?? `Seat ${seat + 1}`;
  const picking = legal.filter((c) => Array.isArray(c.cards));
  const plain = legal.filter((c) => !Array.isArray(c.cards) && !ui.onTable?.(c));
  const alsoOnTable = legal.filter((c) => ui.onTable?.(c));
  const button = (c: Command) => <button type="button" onClick={() => send(c)} data-command={c.type}>{ui.label(c, game.view, name, edition)}</button>;
  const cards = [...new Set(picking.flatMap((c) => c.cards as number[]))].sort((a, b) => a - b);
  const chosen = picking.find((c) => sameCards(c.cards as number[], picked));
  return (
    <div class="commands" data-testid="commands" role="group" aria-label="Your moves">
      {plain.map(button)}
      {alsoOnTable.length ? (
        <details class="fallback" data-testid="on-table-commands">
          <summary>{alsoOnTable.length === 1 ? 'Your move on the table, as a button' : `Your ${alsoOnTable.length} moves on the table, as buttons`}</summary>
          {alsoOnTable.map(button)}
        </details>
      ) : null}
      {picking.length ? (
        <fieldset data-testid="picker">
          <legend>{picking[0]!.type === 'discard' ? 'Pick the cards to discard' : 'Pick the cards to play'}</legend>
          {cards.map((id) => (
            <label class="pick"><input type="checkbox" checked={picked.includes(id)} onChange={() => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]))} data-card={id} />{ui.label({ type: picking[0]!.type, cards: [id] }, game.view, name, edition).replace(/^\w+ /, '')}</label>
          ))}
          <button type="button" disabled={chosen === undefined} onClick={() => chosen && send(chosen)} data-command={picking[0]!.type}>
            {chosen ? ui.label(chosen, game.view, name, edition) : 'Pick a legal set of cards'}
          </button>
        </fieldset>
      ) : null}
      {legal.length === 0 && game.status !== 'finished' ? <p class="hint">Nothing to do right now.</p> : null}
    </div>
  );
}

// The same call makes the rematch or, once another person made it, takes this
// person's seat in it; either way the browser goes on to play its new seat there.
function Rematch({ id, token, made }: { id: string; token: string; made: boolean }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const go = () => {
    setBusy(true);
    setProblem(null);
    api.rematch(id, token).then(
      (r) => {
        remember({ id: r.game.id, seat: r.seat, token: r.token, type: r.game.type, name: names(r.game)[r.seat] ?? '' });
        location.assign(seatLink({ id: r.game.id, token: r.token }));
      },
      (e: unknown) => {
        setBusy(false);
        setProblem(e instanceof ApiError ? e.problem.detail : String(e));
      },
    );
  };
  return (
    <>
      <button type="button" onClick={go} disabled={busy} data-testid="rematch">{made ? 'Rematch started — join it' : 'Rematch'}</button>
      {problem !== null ? <span role="alert"> {problem}</span> : null}
    </>
  );
}

export function PlayPage({ id }: { id: string }) {
  const token = tokenFromHash();
  const entries = useCatalog();
  const [game, setGame] = useState<Game | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reading = useRef<{ busy: boolean; again: boolean }>({ busy: false, again: false });

  // One read at a time; an update during a read asks for one more, so the last
  // update is always followed by a read of the seat's view.
  const refresh = () => {
    if (token === null) return;
    const r = reading.current;
    if (r.busy) {
      r.again = true;
      return;
    }
    r.busy = true;
    api.game(id, token).then(
      (g) => setGame((old) => (old === null || g.version >= old.version ? g : old)),
      (e: unknown) => setRefusal(e instanceof ApiError ? e.problem.detail : String(e)),
    ).finally(() => {
      r.busy = false;
      if (r.again) {
        r.again = false;
        refresh();
      }
    });
  };
  const { state, events } = useLive(id, game?.game.type, refresh);
  useEffect(refresh, [id]);
  // People arriving at a waiting table, and a rematch another seat made, are no moves
  // the socket would announce: read again meanwhile (for a quarter of an hour after
  // the end, while a rematch is likely).
  usePoll(game !== null && game.game.status === 'open' && game.game.waitingFor.length > 0, WAITING_POLL_MS, refresh);
  const justFinished = game !== null && game.game.finishedAt !== null && Date.parse(game.game.finishedAt) > Date.now() - REMATCH_WINDOW_MS;
  usePoll(justFinished && (game.you.seat ?? null) !== null && game.game.rematch == null, REMATCH_POLL_MS, refresh);
  // Every seat this browser opened is kept for the lobby's "Your games".
  const seat = game?.you.seat;
  useEffect(() => {
    if (game !== null && token !== null && seat !== undefined) remember({ id, seat, token, type: game.game.type, name: names(game.game)[seat] ?? '' });
  }, [id, seat, game?.game.type]);

  const realTime = entries?.find((e) => e.type === game?.game.type)?.traits.realTime ?? false;
  const send = (command: Command) => {
    if (token === null || game === null) return;
    setRefusal(null);
    // In a race the server orders commands by arrival; elsewhere a command meets the
    // version the buttons were drawn for.
    api.command(id, token, command, realTime ? undefined : game.version).then(
      (answer) => setGame((old) => (old === null || answer.version < old.version ? old : { ...old, ...answer })),
      (e: unknown) => setRefusal(e instanceof ApiError ? e.problem.detail : String(e)),
    );
  };

  const ui = game ? uiFor(game.game.type) : undefined;
  useEffect(() => {
    if (!ui?.keys || game === null || game.status !== 'running') return;
    const onKey = (event: KeyboardEvent) => {
      const command = ui.keys![event.key.toLowerCase()];
      if (command === undefined || event.target instanceof HTMLInputElement) return;
      event.preventDefault();
      send(command);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });

  if (token === null) {
    return (
      <Page title="Play">
        <p role="alert">This link has no seat token, so it cannot play a seat.</p>
        <p>To take an open seat, find the game under <a href="/?status=open">open games in the lobby</a>, type your name beside it and press Join. To play a seat someone else created, ask them for its link. Or <a href={`/watch/${id}`}>watch this game</a>.</p>
      </Page>
    );
  }
  if (game === null || entries === null) return <Page title="Play"><p role="alert" data-testid="problem">{refusal ?? 'Loading…'}</p></Page>;
  const edition = editionOf(entries, game.game.type);
  const you = game.you.seat ?? null;
  const title = entries.find((e) => e.type === game.game.type)?.title ?? game.game.type;
  return (
    <Page title={`${title}: playing as ${you === null ? 'referee' : names(game.game)[you]}`}>
      <p class="status">
        <span class={`live-state ${state}`} data-testid="live-state" role="status">{stateWords[state]}</span>
        <span data-testid="version"> · version {game.version}</span>
      </p>
      <Seats game={game.game} />
      <Waiting game={game.game} started={refresh} />
      <Result game={game.game} result={game.result} ending={endingOf(game.view)} you={you}>
        {game.status === 'finished' && you !== null ? <Rematch id={id} token={token} made={game.game.rematch != null} /> : null}{' '}
        <a class="button" href={`/replay/${id}`} data-testid="replay">Replay the game</a>
      </Result>
      <Turn game={game.game} pending={game.pending} you={you} status={game.status} />
      <p role="alert" class="refusal" data-testid="refusal">{refusal ?? ''}</p>
      <Commands game={game} legal={game.legalCommands as Command[]} send={send} edition={edition} />
      <div class="layout">
        <div>
          <LastMove game={game.game} events={events} edition={edition} />
          <TableView game={game.game} view={game.view} you={you} edition={edition} act={game.status === 'running' ? { legal: game.legalCommands as Command[], send } : undefined} events={events} />
        </div>
        <aside><MoveList game={game.game} events={events} edition={edition} /></aside>
      </div>
    </Page>
  );
}
