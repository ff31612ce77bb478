// What the tournament pages share: a tournament's summary and standings kept fresh by
// its live feed, the format in words, the standings table and the rounds with their
// tables. Names are user text: they are only ever rendered as text (Preact escapes).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { publicApi, watchTournament, type FeedState, type Standings, type Summary } from '../tournament-api.ts';

export const problemText = (e: unknown): string => (e instanceof ApiError ? e.problem.detail || e.problem.title : String(e));

export interface Followed {
  readonly summary: Summary | null;
  readonly standings: Standings | null;
  readonly feed: FeedState;
  readonly problem: string | null;
  /** Reads both again (after the page itself changed something). */
  reload(): void;
}

/** A tournament's summary and standings, read again whenever its feed has news. Reads
 * are coalesced: a burst of events (a round finishing) costs one read, and one more
 * if news came while it ran. */
export function useTournament(id: string): Followed {
  const [summary, setSummary] = useState<Summary | null>(null);
  const [standings, setStandings] = useState<Standings | null>(null);
  const [feed, setFeed] = useState<FeedState>('connecting');
  const [problem, setProblem] = useState<string | null>(null);
  const reading = useRef<{ busy: boolean; again: boolean }>({ busy: false, again: false });
  /** Reads both; answers the summary's version (null when the read failed). */
  const read = async (): Promise<number | null> => {
    const r = reading.current;
    if (r.busy) {
      r.again = true;
      return null;
    }
    r.busy = true;
    let version: number | null = null;
    do {
      r.again = false;
      try {
        const [s, st] = await Promise.all([publicApi.summary(id), publicApi.standings(id)]);
        setSummary(s);
        setStandings(st);
        setProblem(null);
        version = s.version;
      } catch (e) {
        setProblem(problemText(e));
      }
    } while (r.again);
    r.busy = false;
    return version;
  };
  useEffect(() => {
    let stop: (() => void) | null = null;
    let gone = false;
    // The feed starts after the version read: only news comes (a long log is not sent again).
    void read().then((version) => {
      if (!gone) stop = watchTournament(id, version ?? 0, () => void read(), setFeed);
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [id]);
  return { summary, standings, feed, problem, reload: () => void read() };
}

/** What `load` answers, read again whenever `deps` change; requests overlap when news
 * comes fast, so an answer that arrives after a newer request's is dropped (it would
 * put an older state back on the page). `problem`: the last refusal, in words. */
export function useLatest<T>(load: () => Promise<T>, deps: readonly unknown[]): { value: T | null; problem: string | null } {
  const [state, setState] = useState<{ value: T | null; problem: string | null }>({ value: null, problem: null });
  const latest = useRef(0);
  useEffect(() => {
    const mine = ++latest.current;
    load().then(
      (value) => mine === latest.current && setState({ value, problem: null }),
      (e) => mine === latest.current && setState((before) => ({ ...before, problem: problemText(e) })),
    );
  }, deps);
  return state;
}

export function formatWords(format: unknown): string {
  const f = format as { kind: string; rounds?: number; tableSize: { min: number; max: number }; advance?: number; byes?: boolean; placement?: boolean };
  const size = f.tableSize.min === f.tableSize.max ? `tables of ${f.tableSize.min}` : `tables of ${f.tableSize.min}–${f.tableSize.max}`;
  const kind = f.kind === 'swiss' ? 'Swiss' : f.kind === 'rotation' ? 'Rotation' : 'Knockout';
  const rounds = f.rounds === undefined ? `the top ${f.advance} of each table go on` : `${f.rounds} round${f.rounds === 1 ? '' : 's'}`;
  const byes = f.byes === false ? 'no byes' : 'byes when the field does not fit';
  return `${kind}, ${rounds}, ${size}, ${byes}${f.placement ? ', a placement table' : ''}`;
}

export const statusWords = { registering: 'registering', running: 'running', finished: 'finished' } as const;

export function FeedBadge({ state }: { state: FeedState }) {
  return <span class={`live-state ${state === 'live' ? 'live' : state}`} data-testid="feed-state" aria-live="polite">{state === 'live' ? 'live' : state}</span>;
}

export function Blocked({ summary }: { summary: Summary }) {
  if (summary.blocked === null) return null;
  return (
    <p class="blocked" role="alert" data-testid="blocked">
      Round {summary.blocked.round} cannot be paired: {summary.blocked.reason}
    </p>
  );
}

export const nameOf = (summary: Summary) => {
  const names = new Map(summary.players.map((p) => [p.id, p.name]));
  return (player: string) => names.get(player) ?? player;
};

const tieBreakWords: Record<string, readonly [string, string]> = {
  'opponents-points': ["Opponents' points", 'Opp.'],
  'head-to-head': ['Head to head', 'H2H'],
  score: ['Score', 'Sc.'],
  wins: ['Wins', 'W'],
};

/** A column heading in words, and on a phone its short form, so that nine columns fit
 * 390 px without breaking words into letters; screen readers always read the words. */
const Heading = ({ words, short }: { words: string; short: string }) => (
  <th scope="col">
    <span class="long">{words}</span>
    <span class="short" aria-hidden="true" title={words}>{short}</span>
  </th>
);

export function StandingsTable({ standings, highlight }: { standings: Standings; highlight?: string | null }) {
  const tieBreaks = Object.keys(standings.standings[0]?.tieBreaks ?? {});
  if (standings.standings.length === 0) return <p>No standings yet.</p>;
  return (
    <div class="scroll-x" tabIndex={0} role="region" aria-label="Standings table">
      <table class="standings" data-testid="standings">
        <caption>Standings after round {standings.round}{standings.finished ? ' (final)' : ''}</caption>
        <thead>
          <tr>
            <Heading words="Rank" short="#" />
            <th scope="col">Player</th>
            <Heading words="Points" short="Pts" />
            <Heading words="Played" short="Pl." />
            {tieBreaks.map((t) => {
              const [words, short] = tieBreakWords[t] ?? [t, t];
              return <Heading words={words} short={short} />;
            })}
            <Heading words="Rating" short="Rtg" />
          </tr>
        </thead>
        <tbody>
          {standings.standings.map((s) => (
            <tr data-player={s.player} class={highlight === s.player ? 'you' : ''}>
              <td data-col="rank">{s.rank}</td>
              <td data-col="name">{s.name}{s.withdrawn ? ' (withdrawn)' : s.absent ? ` (absent: ${s.absent === 'no-show' ? 'no-show' : 'not checked in'})` : ''}</td>
              <td data-col="points">{s.points}</td>
              <td data-col="played">{s.played}{s.byes ? ` (${s.byes} bye${s.byes > 1 ? 's' : ''})` : ''}</td>
              {tieBreaks.map((t) => <td data-col={t}>{s.tieBreaks[t]}</td>)}
              <td data-col="rating">{s.rating === null ? '–' : s.rating.ordinal.toFixed(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="legend" aria-hidden="true">
        # rank · Pts points · Pl. played · {tieBreaks.map((t) => { const [words, short] = tieBreakWords[t] ?? [t, t]; return `${short} ${words.toLowerCase()} · `; })}Rtg rating
      </p>
    </div>
  );
}

/** Every round's tables, newest first, each linking to its game: watch while it is
 * played, replay once it is over. */
export function Rounds({ summary, highlight, children }: { summary: Summary; highlight?: string | null; children?: (table: Summary['rounds'][number]['tables'][number], round: number) => preact.ComponentChildren }) {
  const name = nameOf(summary);
  if (summary.rounds.length === 0) return <p>No round has been paired yet.</p>;
  return (
    <>
      {[...summary.rounds].reverse().map((round) => (
        <section class="round" data-round={round.round} aria-labelledby={`round-${round.round}`}>
          <h3 id={`round-${round.round}`}>Round {round.round}</h3>
          <ol class="tables">
            {round.tables.map((table, i) => (
              <li data-game-id={table.gameId} data-finished={String(table.finished)} class={highlight && table.players.includes(highlight) ? 'you' : ''}>
                <span>Table {i + 1}{table.placement ? ' (placement)' : ''}: </span>
                <span>{table.players.map(name).join(', ')}</span>{' '}
                <a href={`/${table.finished ? 'replay' : 'watch'}/${table.gameId}`}>{table.finished ? `Replay table ${i + 1}` : `Watch table ${i + 1}`}</a>
                {table.adjudicated ? <span class="hint"> · adjudicated: {table.adjudicated}</span> : table.finished ? <span class="hint"> · finished</span> : <span class="hint"> · playing</span>}
                {children?.(table, round.round)}
              </li>
            ))}
          </ol>
          {round.byes.length ? <p class="hint">Bye: {round.byes.map(name).join(', ')}</p> : null}
        </section>
      ))}
    </>
  );
}
